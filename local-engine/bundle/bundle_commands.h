#pragma once
// The commands of dgem-engine (dgem_engine_main.cpp) that are not tests or the benchmark.

namespace bundle {

// make-tiny-model --out DIR [--seed N] [--preset tiny|small] [--dtype TYPE] [--tokenizer FILE]:
// engine::write_tiny_model, as `dgem make-tiny-model` (which links Qt). The tokenizer defaults
// to the bundle's models/tokenizer/tokenizer.json; `--tokenizer ""` writes none. Exit 0 on
// success, 2 on bad arguments, 3 when the writer refuses (an unknown --dtype says which exist).
int make_tiny_model(int argc, char** argv);

// parity --model DIR [--tolerance X]: the same slot read (a fixed prompt, three canvas rows of
// 32 seeded ids, four slots with three labels each) on a CPU engine and a CUDA engine opened on
// DIR; prints the worst label log-prob difference and how many slots agree on whether the
// argmax is a label. Exit 0 within tolerance (default 2e-2), 1 beyond it, 3 when an engine
// cannot open or read, 77 without a usable CUDA device.
int parity(int argc, char** argv);

}  // namespace bundle
