// SPDX-License-Identifier: MIT

#include "base/atomic_file.hpp"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <streambuf>

#include "base/temporary.hpp"

namespace ibpm::base {

namespace {

[[noreturn]] void fail(const std::string& path, int error) {
  throw std::runtime_error("cannot write " + path +
                           (error ? ": " + std::string(std::strerror(error)) : ""));
}

// A stream buffer writing to a descriptor that remembers why a write failed (ENOSPC, EFBIG):
// std::ofstream only says that it did.
class DescriptorBuffer : public std::streambuf {
 public:
  explicit DescriptorBuffer(int fd) : fd_(fd) { setp(buffer_, buffer_ + sizeof buffer_); }
  int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  bool drain() {
    const char* data = pbase();
    std::size_t left = static_cast<std::size_t>(pptr() - pbase());
    while (left > 0) {
      const ssize_t n = ::write(fd_, data, left);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        if (error_ == 0) error_ = n < 0 ? errno : EIO;
        return false;
      }
      data += n;
      left -= static_cast<std::size_t>(n);
    }
    setp(buffer_, buffer_ + sizeof buffer_);
    return true;
  }

  int fd_;
  int error_ = 0;
  char buffer_[1 << 16];
};

// The new content reaches the disk before the rename makes it the file.
int sync_file(const std::string& file) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return errno;
  const int error = ::fsync(fd) == 0 ? 0 : errno;
  ::close(fd);
  return error;
}

// ... and the rename reaches it too (best effort: the file is whole either way).
void sync_folder_of(const std::string& path) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  const int fd = ::open(parent.empty() ? "." : parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  [[maybe_unused]] const int synced = ::fsync(fd);
  ::close(fd);
}

}  // namespace

void replace_file(const std::string& path, const std::function<bool(const std::string&)>& write) {
  std::optional<TemporaryFolder> folder;
  try {
    folder.emplace(path);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error("cannot write " + path + ": " + e.what());
  }
  const std::string& tmp = folder->file_path();
  if (!write(tmp)) fail(path, 0);
  if (const int error = sync_file(tmp)) fail(path, error);
  if (std::rename(tmp.c_str(), path.c_str()) != 0) fail(path, errno);
  sync_folder_of(path);
}

void replace_file_with(const std::string& path, const std::function<void(std::ostream&)>& write,
                       unsigned mode) {
  std::string tmp = temporary_pattern(path);
  // mkstemp: a new file (O_EXCL), 0600, opened with O_CLOEXEC.
  const int fd = ::mkostemp(tmp.data(), O_CLOEXEC);
  if (fd < 0) fail(path, errno);
  hold_temporary(fd);
  int error = 0;
  try {
    DescriptorBuffer buffer(fd);
    std::ostream out(&buffer);
    write(out);
    out.flush();
    if (!out) error = buffer.error() ? buffer.error() : EIO;
    if (error == 0 && ::fchmod(fd, static_cast<mode_t>(mode)) != 0) error = errno;
    if (error == 0 && ::fsync(fd) != 0) error = errno;
    if (error == 0 && std::rename(tmp.c_str(), path.c_str()) != 0) error = errno;
  } catch (...) {
    ::unlink(tmp.c_str());
    ::close(fd);
    throw;
  }
  if (error != 0) ::unlink(tmp.c_str());
  ::close(fd);
  if (error != 0) fail(path, error);
  sync_folder_of(path);
  remove_stale_temporaries(path);
}

}  // namespace ibpm::base
