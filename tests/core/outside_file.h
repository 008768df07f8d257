#pragma once
// A file outside every policy catalog, and a way to know whether anything opened it: the tests
// that give `decide_policy` and `/api/decide/{template}` paths (absolute, "..", a link out of a
// catalog folder) check that the file was never opened, not only that its content did not come
// back. inotify reports opens by any process (the real dgem serve too), root's included, where a
// file without read permission would not stop root.

#include <sys/inotify.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <string>

class OutsideFile {
  public:
    // Writes `content` to `path` and starts watching it for opens and reads.
    OutsideFile(std::filesystem::path path, const std::string& content) : path_(std::move(path)) {
        std::ofstream(path_) << content;
        fd_ = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
        if (fd_ >= 0) watch_ = ::inotify_add_watch(fd_, path_.c_str(), IN_OPEN | IN_ACCESS);
    }
    ~OutsideFile() {
        if (fd_ >= 0) ::close(fd_);
    }
    OutsideFile(const OutsideFile&) = delete;
    OutsideFile& operator=(const OutsideFile&) = delete;

    bool watching() const { return fd_ >= 0 && watch_ >= 0; }
    const std::filesystem::path& path() const { return path_; }

    // Whether the file was opened or read since the watch began (or the last call).
    bool opened() {
        alignas(inotify_event) char buffer[4096];
        bool any = false;
        for (;;) {
            const ssize_t n = ::read(fd_, buffer, sizeof buffer);
            if (n > 0) {
                any = true;
                continue;
            }
            if (n < 0 && errno == EINTR) continue;
            return any;
        }
    }

  private:
    std::filesystem::path path_;
    int fd_ = -1;
    int watch_ = -1;
};
