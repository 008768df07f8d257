// Lets the bundle run on glibc 2.34 and 2.35 (Ubuntu 22.04, RHEL 9: common on GPU machines)
// although it is built on Debian 12 (glibc 2.36). The static libstdc++ and libgcc of GCC 12 call
// two functions only newer glibc has: arc4random (2.36; std::random_device) and _dl_find_object
// (2.35; the exception unwinder looks up the code's unwind tables with it). Defined here, in the
// executable, those calls bind to these definitions and the executable asks the loader for
// nothing newer than GLIBC_2.34. tests/bundle/check_bundle.sh checks that, and `dgem-engine
// info` throws and catches an exception through this lookup.

#include <dlfcn.h>
#include <link.h>
#include <sys/random.h>

#include <cerrno>
#include <cstdint>

extern "C" {

// A uniformly random 32-bit value from the kernel (getrandom exists since glibc 2.25).
uint32_t arc4random() noexcept {
    uint32_t v = 0;
    char* p = reinterpret_cast<char*>(&v);
    size_t left = sizeof v;
    while (left > 0) {
        const ssize_t n = getrandom(p, left, 0);
        if (n < 0) {
            if (errno == EINTR) continue;
            break;  // cannot happen for 4 bytes on Linux >= 3.17; v keeps what it has
        }
        p += n;
        left -= static_cast<size_t>(n);
    }
    return v;
}

namespace {

struct Lookup {
    uintptr_t pc;
    dl_find_object* out;
    bool found;
};

// dl_iterate_phdr callback: the loaded object whose PT_LOAD segments contain pc, and its
// PT_GNU_EH_FRAME (the unwinder's index of unwind tables).
int find_object(dl_phdr_info* info, size_t, void* data) {
    auto* q = static_cast<Lookup*>(data);
    uintptr_t lo = UINTPTR_MAX, hi = 0;
    bool contains = false;
    void* eh_frame = nullptr;
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        const ElfW(Phdr)& ph = info->dlpi_phdr[i];
        const uintptr_t start = info->dlpi_addr + ph.p_vaddr;
        if (ph.p_type == PT_LOAD) {
            lo = start < lo ? start : lo;
            hi = start + ph.p_memsz > hi ? start + ph.p_memsz : hi;
            contains = contains || (q->pc >= start && q->pc < start + ph.p_memsz);
        } else if (ph.p_type == PT_GNU_EH_FRAME) {
            eh_frame = reinterpret_cast<void*>(start);
        }
    }
    if (!contains) return 0;
    *q->out = dl_find_object{};
    q->out->dlfo_map_start = reinterpret_cast<void*>(lo);
    q->out->dlfo_map_end = reinterpret_cast<void*>(hi);
    q->out->dlfo_eh_frame = eh_frame;
    q->found = true;
    return 1;
}

}  // namespace

// glibc 2.35's lookup, answered with dl_iterate_phdr (what libgcc itself used before 2.35):
// 0 and the object's bounds and unwind-table index, or -1 when no loaded object holds pc.
int _dl_find_object(void* pc, dl_find_object* result) noexcept {
    Lookup q{reinterpret_cast<uintptr_t>(pc), result, false};
    dl_iterate_phdr(find_object, &q);
    return q.found ? 0 : -1;
}

}  // extern "C"
