#pragma once
// The page-cache steps of the benchmarks that time a first open against one read of the files
// (bench-cpu_weights, bench-first_touch): drop a file's pages, read a file once.

#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <span>

// Writes back a file's dirty pages, then drops all its pages from the page cache. False when
// the file cannot be opened, written back or dropped.
inline bool drop_from_page_cache(const std::filesystem::path& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    // Written pages must be on disk before they can be dropped.
    const bool dropped =
        ::fdatasync(fd) == 0 && ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0;
    ::close(fd);
    return dropped;
}

// Reads a whole file once with read(2) into `buffer`, piece after piece (from the page cache
// when it is there). The caller owns the buffer, so its first touch is not part of a timed read.
// False when the file cannot be opened or read.
inline bool read_whole_file(const std::filesystem::path& path, std::span<char> buffer) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    ssize_t n = 0;
    while ((n = ::read(fd, buffer.data(), buffer.size())) > 0) {
    }
    ::close(fd);
    return n == 0;
}
