// The SIGBUS guard of file mappings (see util/mapping_guard.h).
#include "util/mapping_guard.h"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <mutex>

namespace engine::util {
namespace {

// A fixed table the handler can read without locks: base 0 marks a free slot; size is written
// before base is published and read after it.
struct Slot {
    std::atomic<std::uintptr_t> base{0};
    std::atomic<std::size_t> size{0};
    std::atomic<bool> damaged{false};
};
constexpr int kSlots = 1024;
Slot g_slots[kSlots];
struct sigaction g_previous {};
std::uintptr_t g_page = 4096;
std::once_flag g_installed;
std::atomic<bool> g_any_damaged{false};  // sticky: set by the handler, never cleared

void on_sigbus(int sig, siginfo_t* info, void* context) {
    const auto addr = reinterpret_cast<std::uintptr_t>(info->si_addr);
    for (Slot& s : g_slots) {
        const std::uintptr_t base = s.base.load(std::memory_order_acquire);
        if (base == 0 || addr < base || addr >= base + s.size.load(std::memory_order_relaxed))
            continue;
        // mmap is a plain system call here: replacing the page is safe in a signal handler.
        void* page = reinterpret_cast<void*>(addr & ~(g_page - 1));
        if (::mmap(page, g_page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) !=
            MAP_FAILED) {
            s.damaged.store(true, std::memory_order_release);
            g_any_damaged.store(true, std::memory_order_release);
            return;  // the read is retried and finds zeros
        }
        break;
    }
    if ((g_previous.sa_flags & SA_SIGINFO) && g_previous.sa_sigaction) {
        g_previous.sa_sigaction(sig, info, context);
        return;
    }
    if (!(g_previous.sa_flags & SA_SIGINFO) && g_previous.sa_handler != SIG_DFL &&
        g_previous.sa_handler != SIG_IGN) {
        g_previous.sa_handler(sig);
        return;
    }
    // The default action: the faulting access runs again and ends the process as before.
    ::signal(SIGBUS, SIG_DFL);
}

void install() {
    if (const long page = ::sysconf(_SC_PAGESIZE); page > 0)
        g_page = static_cast<std::uintptr_t>(page);
    struct sigaction action {};
    action.sa_sigaction = on_sigbus;
    action.sa_flags = SA_SIGINFO;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGBUS, &action, &g_previous);
}

}  // namespace

int guard_mapping(const void* base, std::size_t size) {
    if (!base || size == 0) return -1;
    std::call_once(g_installed, install);
    static std::mutex claim;  // registration is rare: one lock keeps slot claims simple
    const std::lock_guard lock(claim);
    for (int i = 0; i < kSlots; ++i) {
        Slot& s = g_slots[i];
        if (s.base.load(std::memory_order_relaxed) != 0) continue;
        s.damaged.store(false, std::memory_order_relaxed);
        s.size.store(size, std::memory_order_relaxed);
        s.base.store(reinterpret_cast<std::uintptr_t>(base), std::memory_order_release);
        return i;
    }
    return -1;
}

void unguard_mapping(int slot) {
    if (slot < 0 || slot >= kSlots) return;
    g_slots[slot].base.store(0, std::memory_order_release);
    g_slots[slot].size.store(0, std::memory_order_relaxed);
}

bool mapping_damaged(int slot) {
    return slot >= 0 && slot < kSlots && g_slots[slot].damaged.load(std::memory_order_acquire);
}

bool any_mapping_damaged() {
    return g_any_damaged.load(std::memory_order_acquire);
}

}  // namespace engine::util
