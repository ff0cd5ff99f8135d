// SPDX-License-Identifier: MIT
// A password read from a file: its first line; a missing, empty or shared file refused with a
// reason that names the file and never the secret.
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <string>

#include "base/secret_file.hpp"
#include "support/temp_dir.hpp"
#include "support/text_files.hpp"

using ibpm::base::read_secret_file;
using namespace ibpm::test;

namespace {

std::string secret_file(const TempDir& dir, const std::string& text, mode_t mode) {
  const std::string path = dir / "password";
  write_text(path, text);
  REQUIRE(::chmod(path.c_str(), mode) == 0);
  return path;
}

std::string refusal(const std::string& path) {
  try {
    read_secret_file(path);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "(read)";
}

}  // namespace

TEST_CASE("the password is the file's first line") {
  TempDir dir("secret");
  CHECK(read_secret_file(secret_file(dir, "s3cr\"et\n", 0600)) == "s3cr\"et");
  CHECK(read_secret_file(secret_file(dir, "pw\r\nsecond line\n", 0400)) == "pw");
  CHECK(read_secret_file(secret_file(dir, "no line feed", 0600)) == "no line feed");
}

TEST_CASE("a missing, empty or shared password file is refused, naming the file only") {
  TempDir dir("secret");
  CHECK(refusal(dir / "absent") == dir / "absent" + ": cannot open: No such file or directory");
  CHECK(refusal(secret_file(dir, "", 0600)) == dir / "password" + ": empty");
  CHECK(refusal(secret_file(dir, "\nsecond\n", 0600)) == dir / "password" + ": empty");
  const std::string path = secret_file(dir, "hunter2\n", 0644);
  const std::string why = refusal(path);
  CHECK(why == path + ": group or others may read it (mode 0644): chmod 600 " + path);
  CHECK(why.find("hunter2") == std::string::npos);
  CHECK(refusal(secret_file(dir, "hunter2\n", 0640)).find("(mode 0640)") != std::string::npos);
  CHECK(refusal(secret_file(dir, "hunter2\n", 0604)).find("(mode 0604)") != std::string::npos);
  CHECK(refusal(secret_file(dir, "hunter2\n", 0620)).find("(mode 0620)") != std::string::npos);
  CHECK(refusal(dir.path().string()).find("not a regular file") != std::string::npos);
}

TEST_CASE("a key file another library reads must be private too, and is read whole") {
  TempDir dir("secret");
  CHECK(ibpm::base::read_private_file(secret_file(dir, "-----BEGIN KEY\nline 2\n", 0600)) ==
        "-----BEGIN KEY\nline 2\n");
  CHECK_THROWS_WITH(ibpm::base::read_private_file(secret_file(dir, "-----BEGIN KEY", 0640)),
                    dir / "password" + ": group or others may read it (mode 0640): chmod 600 " +
                        dir / "password");
  CHECK_THROWS_WITH(ibpm::base::read_private_file(dir / "absent"),
                    dir / "absent" + ": cannot open: No such file or directory");
  CHECK_THROWS_WITH(ibpm::base::read_private_file(secret_file(dir, std::string(65537, 'k'), 0600)),
                    dir / "password" + ": larger than 65536 bytes");
}
