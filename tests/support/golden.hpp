// SPDX-License-Identifier: MIT
// Approval (golden) files: output compared byte for byte with a file kept in tests/golden/.
// On a mismatch the test fails and prints a unified diff; IBPM_UPDATE_GOLDEN=1 in the
// environment rewrites the file instead (review the change with git diff).
#pragma once

#include <string>

namespace ibpm::test {

// Compares `actual` with tests/golden/NAME (a Catch2 check: the test goes on after a mismatch).
void check_golden(const std::string& name, const std::string& actual);

}  // namespace ibpm::test
