// Quantised weights on the device and the GEMMs over them (see quantized_gemm.h).

#include "cuda/quantized_gemm.h"

#include <algorithm>
#include <string>
#include <vector>

#include "cuda/quantized_check.h"
#include "cuda/quantized_kernels.h"
#include "model/quantized.h"

namespace engine::cuda {

Result<void> upload_quantized(const model::TensorView& t, DeviceQuantizedMatrix& out) {
    if (!t.quantized || t.quantized->parts.empty())
        return engine_error("CUDA backend: tensor " + t.name + " is not quantised");
    const auto& parts = t.quantized->parts;
    const model::WeightFormat format = parts.front().format;
    if (format == model::WeightFormat::BF16)
        return engine_error("CUDA backend: tensor " + t.name + " is not quantised");
    const int64_t cols = parts.front().cols;
    int64_t rows = 0;
    for (const auto& p : parts) {
        if (p.format != format || p.cols != cols)
            return engine_error("CUDA backend: tensor " + t.name +
                                " mixes formats or widths across its parts");
        rows += p.rows;
    }
    // Host staging of the concatenated parts (the packed bytes, a small fraction of bf16).
    std::vector<uint8_t> values, blocks;
    std::vector<float> row_scales;
    values.reserve(
        static_cast<size_t>(rows * (format == model::WeightFormat::NVFP4 ? cols / 2 : cols)));
    for (const auto& p : parts) {
        const auto* v = reinterpret_cast<const uint8_t*>(p.weight.data);
        values.insert(values.end(), v, v + p.weight.nbytes);
        if (format == model::WeightFormat::NVFP4) {
            const auto* s = reinterpret_cast<const uint8_t*>(p.weight_scale.data);
            blocks.insert(blocks.end(), s, s + p.weight_scale.nbytes);
            row_scales.insert(row_scales.end(), static_cast<size_t>(p.rows), p.global_scale);
        } else {
            std::vector<float> s(static_cast<size_t>(p.rows));
            model::to_float(p.weight_scale.dtype, p.weight_scale.data, s.size(), s.data());
            row_scales.insert(row_scales.end(), s.begin(), s.end());
        }
    }
    out.format = format;
    out.rows = static_cast<int>(rows);
    out.cols = static_cast<int>(cols);
    DS_TRY(out.values.allocate(values.size(), "packed weights"));
    DS_CUDA_TRY(cudaMemcpy(out.values.get(), values.data(), values.size(), cudaMemcpyHostToDevice));
    if (!blocks.empty()) {
        DS_TRY(out.block_scales.allocate(blocks.size(), "NVFP4 block scales"));
        DS_CUDA_TRY(cudaMemcpy(out.block_scales.get(), blocks.data(), blocks.size(),
                               cudaMemcpyHostToDevice));
    }
    DS_TRY(out.row_scales.allocate(row_scales.size() * sizeof(float), "weight scales"));
    DS_CUDA_TRY(cudaMemcpy(out.row_scales.get(), row_scales.data(),
                           row_scales.size() * sizeof(float), cudaMemcpyHostToDevice));
    return {};
}

bool fp8_tensor_cores() {
    return fp8_tensor_cores_available();
}

bool fp4_tensor_cores() {
    return fp4_tensor_cores_available();
}

Result<std::vector<float>> run_quantized_gemm(const model::TensorView& w,
                                              const std::vector<uint16_t>& x, int tokens,
                                              bool dynamic_activations, bool tensor_cores,
                                              const std::vector<int>& group_counts) {
    DeviceQuantizedMatrix d;
    DS_TRY(upload_quantized(w, d));
    const bool nvfp4 = d.format == model::WeightFormat::NVFP4;
    if (dynamic_activations && nvfp4 && !fp4_tensor_cores_available())
        return engine_error(
            "CUDA backend: NVFP4 activations need FP4 tensor cores (compute capability 12.x, "
            "built for the 12.x family)");
    if (x.size() != static_cast<size_t>(tokens) * static_cast<size_t>(d.cols))
        return engine_error("CUDA backend: x does not hold tokens * cols values");
    const int groups = group_counts.empty() ? 1 : static_cast<int>(group_counts.size());
    if (d.rows % groups != 0)
        return engine_error("CUDA backend: the weight's rows do not split into the groups");
    std::vector<int> offsets(static_cast<size_t>(groups), 0);
    int max_count = tokens;
    if (!group_counts.empty()) {
        int sum = 0;
        max_count = 0;
        for (int g = 0; g < groups; ++g) {
            offsets[static_cast<size_t>(g)] = sum;
            sum += group_counts[static_cast<size_t>(g)];
            max_count = std::max(max_count, group_counts[static_cast<size_t>(g)]);
        }
        if (sum != tokens) return engine_error("CUDA backend: group counts do not sum to tokens");
    }
    const int out = d.rows / groups;
    const size_t n_out = static_cast<size_t>(tokens) * static_cast<size_t>(out);
    DeviceBuffer dx, dy, dq, db, ds, doff, dcnt;
    DS_TRY(dx.allocate(x.size() * sizeof(uint16_t), "GEMM input"));
    DS_TRY(dy.allocate(n_out * sizeof(float), "GEMM output"));
    DS_CUDA_TRY(
        cudaMemcpy(dx.get(), x.data(), x.size() * sizeof(uint16_t), cudaMemcpyHostToDevice));
    const int* off = nullptr;
    const int* cnt = nullptr;
    if (!group_counts.empty()) {
        DS_TRY(doff.allocate(offsets.size() * sizeof(int), "group offsets"));
        DS_TRY(dcnt.allocate(offsets.size() * sizeof(int), "group counts"));
        DS_CUDA_TRY(cudaMemcpy(doff.get(), offsets.data(), offsets.size() * sizeof(int),
                               cudaMemcpyHostToDevice));
        DS_CUDA_TRY(cudaMemcpy(dcnt.get(), group_counts.data(), offsets.size() * sizeof(int),
                               cudaMemcpyHostToDevice));
        off = doff.as<int>();
        cnt = dcnt.as<int>();
    }
    if (dynamic_activations && nvfp4) {
        DS_TRY(dq.allocate(x.size() / 2, "NVFP4 activations"));
        DS_TRY(db.allocate(x.size() / 16, "NVFP4 block scales"));
        DS_TRY(ds.allocate(static_cast<size_t>(tokens) * sizeof(float), "activation scales"));
        launch_quantize_rows_nvfp4(dx.as<bf16_t>(), tokens, d.cols, dq.as<uint8_t>(),
                                   db.as<uint8_t>(), ds.as<float>(), nullptr);
        launch_nvfp4_fp4_gemm(d.values.as<uint8_t>(), d.block_scales.as<uint8_t>(),
                              d.row_scales.as<float>(), out, d.cols, off, cnt, groups, max_count,
                              dq.as<uint8_t>(), db.as<uint8_t>(), ds.as<float>(), dy.as<float>(),
                              nullptr);
    } else if (dynamic_activations) {
        DS_TRY(dq.allocate(x.size(), "FP8 activations"));
        DS_TRY(ds.allocate(static_cast<size_t>(tokens) * sizeof(float), "activation scales"));
        launch_quantize_rows_e4m3(dx.as<bf16_t>(), tokens, d.cols, dq.as<uint8_t>(), ds.as<float>(),
                                  nullptr);
        launch_fp8_dynamic_gemm_grouped(d.values.as<uint8_t>(), d.row_scales.as<float>(), out,
                                        d.cols, off, cnt, groups, max_count, dq.as<uint8_t>(),
                                        ds.as<float>(), dy.as<float>(), tensor_cores, nullptr);
    } else {
        launch_packed_gemm_grouped(
            d.format == model::WeightFormat::NVFP4 ? PackedKind::Nvfp4 : PackedKind::Fp8,
            d.values.as<uint8_t>(), d.block_scales.as<uint8_t>(), d.row_scales.as<float>(), out,
            d.cols, off, cnt, groups, max_count, dx.as<bf16_t>(), dy.as<float>(), nullptr);
    }
    DS_CUDA_TRY(cudaGetLastError());
    std::vector<float> y(n_out);
    DS_CUDA_TRY(cudaMemcpy(y.data(), dy.get(), n_out * sizeof(float), cudaMemcpyDeviceToHost));
    return y;
}

}  // namespace engine::cuda
