// dgem-engine: the one executable of the engine-only GPU bundle (DS_ENGINE_ONLY). One binary
// instead of one per test keeps the bundle small: OpenBLAS, the C++ runtime and the CUDA kernels
// are linked statically and would otherwise be carried once per program.
//
//   dgem-engine info                          build and device facts (CUDA compiled/usable, cuBLAS)
//   dgem-engine list                          the engine tests this binary carries
//   dgem-engine test [NAME...]                run them (all by default), each in its own process
//   dgem-engine make-tiny-model --out DIR ... write a tiny model folder (as `dgem make-tiny-model`)
//   dgem-engine parity --model DIR            one slot read on the CPU and on CUDA, compared
//   dgem-engine bench-cuda_decide ARGS...     the benchmark at real shapes (bench/cuda_decide.cpp)
//   dgem-engine shim-probe                    the Qt Test stand-in on known outcomes (fails 4)
//
// Tests run with the bundle's root (the folder above bin/) as working directory: the test
// sources name their data relative to it (models/tokenizer/tokenizer.json, scripts/gpu/...).

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "bundle_commands.h"
#include "engine/engine.h"
#include "engine/gpu_bench.h"

// Each test's and the benchmark's main(), renamed by the build (-Dmain=ds_main_<name>).
#define DS_BUNDLE_TEST(name) int ds_main_tst_##name(int argc, char** argv);
#include "bundle_tests.inc"
#undef DS_BUNDLE_TEST
int ds_main_bench_cuda_decide(int argc, char** argv);
int ds_shim_probe(int argc, char** argv);  // shim_probe.cpp
#ifdef DS_HAVE_CUDA
std::string ds_cublas_description();  // cublas_loader.cpp
#endif

namespace {

struct TestEntry {
    const char* name;
    int (*main)(int, char**);
};

constexpr TestEntry kTests[] = {
#define DS_BUNDLE_TEST(name) {#name, &ds_main_tst_##name},
#include "bundle_tests.inc"
#undef DS_BUNDLE_TEST
};

constexpr int kSkipped = 77;  // the tests' (and ctest's) exit code for "skipped"

std::filesystem::path bundle_root() {
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::filesystem::current_path() : exe.parent_path().parent_path();
}

int usage() {
    std::fprintf(stderr,
                 "usage: dgem-engine info | list | test [NAME...] | make-tiny-model --out DIR "
                 "[--seed N] [--preset tiny|small] [--dtype TYPE] [--tokenizer FILE] | parity "
                 "--model DIR [--tolerance X] | bench-cuda_decide [ARGS...]\n");
    return 2;
}

// Runs one test in a child process so that a crash in one (a CUDA fault, say) is reported and
// the others still run. The parent never touches CUDA, so forking is safe.
int run_test(const TestEntry& test, std::vector<char*> args) {
    std::fflush(stdout);
    const pid_t pid = fork();
    if (pid < 0) {
        std::perror("dgem-engine: fork");
        return 1;
    }
    if (pid == 0) {
        args.insert(args.begin(), const_cast<char*>(test.name));
        args.push_back(nullptr);
        const int rc = test.main(static_cast<int>(args.size()) - 1, args.data());
        std::fflush(stdout);
        std::fflush(stderr);
        _exit(rc);
    }
    int status = 0;
    if (waitpid(pid, &status, 0) < 0) return 1;
    if (WIFSIGNALED(status)) {
        std::printf("dgem-engine: test %s died of signal %d (%s)\n", test.name, WTERMSIG(status),
                    strsignal(WTERMSIG(status)));
        return 128 + WTERMSIG(status);
    }
    return WEXITSTATUS(status);
}

// `test [NAME...] [-- test-function...]`: exit 0 when every named test passed or was skipped,
// 77 when all were skipped, 1 otherwise. One summary line per test.
int run_tests(int argc, char** argv) {
    std::vector<std::string> names;
    std::vector<char*> passthrough;
    bool after_dashes = false;
    for (int i = 0; i < argc; ++i) {
        if (!after_dashes && std::strcmp(argv[i], "--") == 0) {
            after_dashes = true;
            continue;
        }
        if (after_dashes)
            passthrough.push_back(argv[i]);
        else
            names.emplace_back(argv[i]);
    }
    std::vector<const TestEntry*> chosen;
    for (const auto& t : kTests)
        if (names.empty() || std::find(names.begin(), names.end(), t.name) != names.end())
            chosen.push_back(&t);
    for (const auto& n : names) {
        bool known = false;
        for (const auto& t : kTests) known = known || n == t.name;
        if (!known) {
            std::fprintf(stderr, "dgem-engine: no test named '%s' (see `dgem-engine list`)\n",
                         n.c_str());
            return 2;
        }
    }
    std::error_code ec;
    std::filesystem::current_path(bundle_root(), ec);
    int failed = 0, skipped = 0;
    std::vector<std::string> summary;
    for (const auto* t : chosen) {
        std::printf("\n=== test %s ===\n", t->name);
        const int rc = run_test(*t, passthrough);
        const char* verdict = rc == 0 ? "passed" : rc == kSkipped ? "skipped" : "FAILED";
        failed += rc != 0 && rc != kSkipped;
        skipped += rc == kSkipped;
        summary.push_back(std::string(t->name) + ": " + verdict +
                          (rc != 0 && rc != kSkipped ? " (exit " + std::to_string(rc) + ")" : ""));
    }
    std::printf("\n");
    for (const auto& s : summary) std::printf("test-result %s\n", s.c_str());
    if (failed) return 1;
    return skipped == static_cast<int>(chosen.size()) ? kSkipped : 0;
}

// An exception thrown and caught: the unwinder finds this binary's unwind tables (through
// glibc_compat.cpp's _dl_find_object on glibc older than 2.35).
bool exceptions_work() {
    try {
        throw std::runtime_error("probe");
    } catch (const std::runtime_error& e) {
        return std::string(e.what()) == "probe";
    }
    return false;
}

int info() {
    std::printf("exceptions %s\n", exceptions_work() ? "ok" : "BROKEN");
    std::printf("cuda-compiled %s\n", engine::gpu_bench::compiled() ? "yes" : "no");
    std::printf("cuda-usable %s\n", engine::cuda_available() ? "yes" : "no");
    std::printf("cuda-archs %s\n", DS_BUNDLE_CUDA_ARCHS);
#ifdef DS_HAVE_CUDA
    // Which cuBLAS the CUDA backend would use (loading it needs no GPU).
    const std::string cublas = ds_cublas_description();
    std::printf("cublas %s\n", cublas.empty() ? "NOT FOUND" : cublas.c_str());
#endif
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) return usage();
    const std::string command = argv[1];
    if (command == "info") return info();
    if (command == "list") {
        for (const auto& t : kTests) std::printf("%s\n", t.name);
        return 0;
    }
    if (command == "test") return run_tests(argc - 2, argv + 2);
    if (command == "make-tiny-model") return bundle::make_tiny_model(argc - 2, argv + 2);
    if (command == "parity") return bundle::parity(argc - 2, argv + 2);
    if (command == "bench-cuda_decide") return ds_main_bench_cuda_decide(argc - 1, argv + 1);
    if (command == "shim-probe") return ds_shim_probe(argc - 1, argv + 1);
    std::fprintf(stderr, "dgem-engine: unknown command '%s'\n", command.c_str());
    return usage();
}
