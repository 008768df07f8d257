// bench-first_touch: what this machine charges for memory touched the first time, with no engine
// code in the way, as the yardstick for bench-cpu_weights' open cost (issue 41's aim: the first
// decision within 2x one read of the weights from the page cache).
//
//   * a file of --gb GB written in 16 MiB pieces, written back, dropped from the page cache and
//     read back once from disk with read(2), as bench-cpu_weights prepares its weights;
//   * read(2) of it again (the page cache: the aim's yardstick);
//   * the same bytes through a read-only mapping, its pages mapped in bulk beforehand
//     (MADV_POPULATE_READ, as the engine's prefetch does) and then one byte of every 4 KiB page
//     read: the first mapping, then a second one; wall, user and system time, page faults;
//   * --gb GB of fresh anonymous memory written once per 4 KiB page (as a pass's workspace is
//     first written), then again in a second mapping.
//
// An engine that reads its weights through a mapping pays at least the first mapped touch on
// its first decision; where that alone is over 2x the read, no mapped engine meets the aim on
// this machine. The figures move with the host (on a virtual machine the hypervisor may back a
// guest page only when it is first touched from user space; that time shows as user time with
// no page fault in the guest).
//
//   bench-first_touch [--gb G] [--dir DIR] [--rounds N]
//
// Never part of ctest.

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "page_cache.h"

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

constexpr size_t kPage = 4096;

[[noreturn]] void die(const std::string& what) {
    std::fprintf(stderr, "bench-first_touch: %s\n", what.c_str());
    std::exit(1);
}

// Wall, user and system seconds and minor page faults of one stretch of work.
struct Cost {
    double wall = 0, user = 0, sys = 0;
    long faults = 0;
};

class Meter {
  public:
    Meter() : t0_(Clock::now()) { getrusage(RUSAGE_SELF, &r0_); }
    Cost stop() const {
        rusage r1{};
        getrusage(RUSAGE_SELF, &r1);
        auto secs = [](const timeval& a, const timeval& b) {
            return double(b.tv_sec - a.tv_sec) + 1e-6 * double(b.tv_usec - a.tv_usec);
        };
        return {std::chrono::duration<double>(Clock::now() - t0_).count(),
                secs(r0_.ru_utime, r1.ru_utime), secs(r0_.ru_stime, r1.ru_stime),
                r1.ru_minflt - r0_.ru_minflt};
    }

  private:
    Clock::time_point t0_;
    rusage r0_{};
};

// The file descriptor closes with the scope, whatever path leaves it.
class Fd {
  public:
    Fd(const fs::path& path, int flags) : fd_(::open(path.c_str(), flags | O_CLOEXEC, 0644)) {
        if (fd_ < 0) die("cannot open " + path.string());
    }
    ~Fd() { ::close(fd_); }
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    int get() const { return fd_; }

  private:
    int fd_;
};

void write_file(const fs::path& path, size_t bytes) {
    Fd fd(path, O_WRONLY | O_CREAT | O_TRUNC);
    std::vector<uint64_t> piece((size_t(16) << 20) / sizeof(uint64_t));
    uint64_t s = 0x9E3779B97F4A7C15ull;
    for (size_t done = 0; done < bytes;) {
        for (uint64_t& v : piece) {  // xorshift64: bytes no filesystem compresses away
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            v = s;
        }
        const size_t n = std::min(bytes - done, piece.size() * sizeof(uint64_t));
        if (::write(fd.get(), piece.data(), n) != static_cast<ssize_t>(n))
            die("short write to " + path.string());
        done += n;
    }
}

Cost read_whole(const fs::path& path) {
    std::vector<char> buf(size_t(16) << 20);
    const Meter m;
    if (!read_whole_file(path, buf)) die("cannot read " + path.string());
    return m.stop();
}

// One byte of every page; the sum keeps the reads.
unsigned touch_pages(const volatile unsigned char* p, size_t bytes) {
    unsigned sum = 0;
    for (size_t off = 0; off < bytes; off += kPage) sum += p[off];
    return sum;
}

Cost touch_mapped(const fs::path& path, size_t bytes, unsigned& sink) {
    Fd fd(path, O_RDONLY);
    void* p = ::mmap(nullptr, bytes, PROT_READ, MAP_SHARED, fd.get(), 0);
    if (p == MAP_FAILED) die("cannot map " + path.string());
    ::madvise(p, bytes, MADV_POPULATE_READ);  // refused before Linux 5.14: then faults count
    const Meter m;
    sink += touch_pages(static_cast<const unsigned char*>(p), bytes);
    const Cost c = m.stop();
    ::munmap(p, bytes);
    return c;
}

Cost touch_anonymous(size_t bytes) {
    const Meter m;
    void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) die("cannot map " + std::to_string(bytes) + " bytes of memory");
    ::madvise(p, bytes, MADV_HUGEPAGE);  // as util::map_pages advises a pass's workspace
    auto* q = static_cast<volatile unsigned char*>(p);
    for (size_t off = 0; off < bytes; off += kPage) q[off] = 1;
    const Cost c = m.stop();
    ::munmap(p, bytes);
    return c;
}

void print(const char* what, const Cost& c, double gb, double yardstick) {
    std::printf("  %-44s %7.3f s (%5.2f s/GB)  user %6.3f  sys %6.3f  faults %7ld", what, c.wall,
                c.wall / gb, c.user, c.sys, c.faults);
    if (yardstick > 0) std::printf("  %5.2fx the read", c.wall / yardstick);
    std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
    double gb = 2;
    int rounds = 1;
    fs::path dir = fs::temp_directory_path();
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) die(a + " needs a value");
            return argv[++i];
        };
        if (a == "--gb")
            gb = std::atof(value().c_str());
        else if (a == "--dir")
            dir = value();
        else if (a == "--rounds")
            rounds = std::atoi(value().c_str());
        else if (a == "-h" || a == "--help") {
            std::printf("bench-first_touch [--gb G] [--dir DIR] [--rounds N]\n");
            return 0;
        } else
            die("unknown option " + a + " (accepted: --gb G, --dir DIR, --rounds N)");
    }
    if (!(gb >= 0.01 && gb <= 64)) die("--gb takes 0.01 to 64 (GB)");
    if (rounds < 1 || rounds > 20) die("--rounds takes 1 to 20");
    if (!fs::is_directory(dir)) die("--dir " + dir.string() + " is not a folder");
    const size_t bytes = static_cast<size_t>(gb * 1e9) / kPage * kPage;
    const fs::path file = dir / "ds-bench-first-touch.bin";
    std::printf("bench-first_touch: %.2f GB in %s\n", double(bytes) / 1e9, dir.c_str());
    unsigned sink = 0;
    for (int r = 0; r < rounds; ++r) {
        std::printf("round %d\n", r + 1);
        write_file(file, bytes);
        if (!drop_from_page_cache(file))  // written back first, then dropped
            die("cannot write back or drop " + file.string());
        const Cost disk = read_whole(file);
        const Cost cached = read_whole(file);
        const double g = double(bytes) / 1e9;
        print("read(2) from disk after writing", disk, g, 0);
        print("read(2) from the page cache (the yardstick)", cached, g, 0);
        print("first mapping, one byte a page", touch_mapped(file, bytes, sink), g, cached.wall);
        print("second mapping, one byte a page", touch_mapped(file, bytes, sink), g, cached.wall);
        print("fresh anonymous memory, written a page each", touch_anonymous(bytes), g, 0);
        print("again, in a second mapping", touch_anonymous(bytes), g, 0);
    }
    fs::remove(file);
    std::fprintf(stderr, "(checksum %u)\n", sink);
    return 0;
}
