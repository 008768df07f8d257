// The vision tower's CUDA operators (see cuda_vision_ops.h).

#include "cuda/cuda_vision_ops.h"

#include <map>
#include <vector>

#include "cuda/cuda_util.h"
#include "cuda/kernels.h"
#include "cuda/vision_kernels.h"

namespace engine::cuda {
namespace {

class CudaVisionOps final : public ops::VisionOps {
  public:
    CudaVisionOps() {
        if (auto e = cudaStreamCreate(&stream_); e != cudaSuccess)
            fail(cuda_error(e, "cudaStreamCreate"));
        if (auto s = cublasCreate(&blas_); s != CUBLAS_STATUS_SUCCESS) {
            blas_ = nullptr;
            fail(cublas_error(s, "cublasCreate"));
        } else {
            cublasSetStream(blas_, stream_);
        }
    }
    ~CudaVisionOps() override {
        if (blas_) cublasDestroy(blas_);
        if (stream_) cudaStreamDestroy(stream_);
    }
    CudaVisionOps(const CudaVisionOps&) = delete;
    CudaVisionOps& operator=(const CudaVisionOps&) = delete;

    void linear(const model::TensorView& w, std::span<const float> x, int64_t rows,
                std::span<float> y) override {
        const float* dw = weight(w);
        const int out = static_cast<int>(w.shape[0]), in = static_cast<int>(w.shape[1]);
        float* dx = upload(a_, x);
        float* dy = scratch(b_, y.size());
        if (!dw || !dx || !dy || !blas_) return;
        // Row-major y[rows, out] = x W^T is column-major y^T = W^T(col) ... : C(out x rows) =
        // op(W_cm)^T * x_cm, W stored row-major [out, in] = column-major [in, out].
        const float one = 1.0f, zero = 0.0f;
        const auto s = cublasSgemm(blas_, CUBLAS_OP_T, CUBLAS_OP_N, out, static_cast<int>(rows), in,
                                   &one, dw, in, dx, in, &zero, dy, out);
        if (s != CUBLAS_STATUS_SUCCESS) fail(cublas_error(s, "cublasSgemm (vision)"));
        download(dy, y);
    }

    void rmsnorm(std::span<const float> x, int64_t dim, const model::TensorView* w, double eps,
                 std::span<float> y) override {
        const float* dw = w ? weight(*w) : nullptr;
        float* dx = upload(a_, x);
        if (!dx || (w && !dw)) return;
        vision_rmsnorm(dx, dw, static_cast<int64_t>(x.size()) / dim, static_cast<int>(dim),
                       static_cast<float>(eps), dx, stream_);
        download(dx, y);
    }

    void rope_2d(std::span<float> x, int64_t rows, int heads, int head_dim,
                 std::span<const int32_t> pos_x, std::span<const int32_t> pos_y,
                 std::span<const float> inv_freq) override {
        float* dx = upload(a_, std::span<const float>(x.data(), x.size()));
        int32_t* px = upload_ints(px_, pos_x);
        int32_t* py = upload_ints(py_, pos_y);
        float* df = upload(c_, inv_freq);
        if (!dx || !px || !py || !df) return;
        vision_rope_2d(dx, rows, heads, head_dim, px, py, df, stream_);
        download(dx, x);
    }

    void attention(std::span<const float> q, std::span<const float> k, std::span<const float> v,
                   int64_t rows, int heads, int kv_heads, int head_dim,
                   std::span<float> out) override {
        float* dq = upload(a_, q);
        float* dk = upload(b_, k);
        float* dv = upload(c_, v);
        float* dout = scratch(d_, out.size());
        if (!dq || !dk || !dv || !dout) return;
        vision_attention(dq, dk, dv, static_cast<int>(rows), heads, kv_heads, head_dim, dout,
                         stream_);
        download(dout, out);
    }

    void gelu_mul(std::span<float> a, std::span<const float> b) override {
        float* da = upload(a_, std::span<const float>(a.data(), a.size()));
        float* db = upload(b_, b);
        if (!da || !db) return;
        vision_gelu_mul(da, db, static_cast<int64_t>(a.size()), stream_);
        download(da, a);
    }

    Result<void> take_status() override {
        if (status_.empty()) return {};
        Error e = engine_error(status_);
        status_.clear();
        return e;
    }

  private:
    void fail(const Error& e) {
        if (status_.empty()) status_ = e.message;
    }
    // A scratch buffer of at least `n` floats (grown, never shrunk).
    float* scratch(DeviceBuffer& buf, size_t n) {
        if (buf.size() < n * sizeof(float))
            if (auto r = buf.allocate(n * sizeof(float), "vision activations"); !r) {
                fail(r.error());
                return nullptr;
            }
        return buf.as<float>();
    }
    float* upload(DeviceBuffer& buf, std::span<const float> host) {
        float* d = scratch(buf, host.size());
        if (!d) return nullptr;
        if (auto e =
                cudaMemcpyAsync(d, host.data(), host.size_bytes(), cudaMemcpyHostToDevice, stream_);
            e != cudaSuccess) {
            fail(cuda_error(e, "cudaMemcpyAsync (vision upload)"));
            return nullptr;
        }
        return d;
    }
    int32_t* upload_ints(DeviceBuffer& buf, std::span<const int32_t> host) {
        if (buf.size() < host.size_bytes())
            if (auto r = buf.allocate(host.size_bytes(), "vision positions"); !r) {
                fail(r.error());
                return nullptr;
            }
        if (auto e = cudaMemcpyAsync(buf.get(), host.data(), host.size_bytes(),
                                     cudaMemcpyHostToDevice, stream_);
            e != cudaSuccess) {
            fail(cuda_error(e, "cudaMemcpyAsync (vision positions)"));
            return nullptr;
        }
        return buf.as<int32_t>();
    }
    // Copies back and waits: the host owns the activations between operators. Every operator
    // ends here, so a kernel that failed to launch (say, too much shared memory) is reported.
    void download(const float* d, std::span<float> host) {
        if (auto e = cudaGetLastError(); e != cudaSuccess) fail(cuda_error(e, "vision kernel"));
        if (auto e =
                cudaMemcpyAsync(host.data(), d, host.size_bytes(), cudaMemcpyDeviceToHost, stream_);
            e != cudaSuccess)
            fail(cuda_error(e, "cudaMemcpyAsync (vision download)"));
        if (auto e = cudaStreamSynchronize(stream_); e != cudaSuccess)
            fail(cuda_error(e, "vision operator"));
    }
    // A weight's fp32 copy on the device.
    const float* weight(const model::TensorView& w) {
        auto it = weights_.find(w.data);
        if (it != weights_.end()) return it->second.as<float>();
        DeviceBuffer raw, f32;
        const size_t n = static_cast<size_t>(w.numel());
        if (auto r = raw.allocate(w.nbytes, "vision weight"); !r) return fail(r.error()), nullptr;
        if (auto r = f32.allocate(n * sizeof(float), "vision weight"); !r)
            return fail(r.error()), nullptr;
        if (auto e = cudaMemcpy(raw.get(), w.data, w.nbytes, cudaMemcpyHostToDevice);
            e != cudaSuccess)
            return fail(cuda_error(e, "cudaMemcpy (vision weight)")), nullptr;
        const SourceType type = w.dtype == model::DType::F32    ? SourceType::F32
                                : w.dtype == model::DType::BF16 ? SourceType::BF16
                                                                : SourceType::F16;
        convert_to_f32(type, raw.get(), n, f32.as<float>(), stream_);
        if (auto e = cudaStreamSynchronize(stream_); e != cudaSuccess)
            return fail(cuda_error(e, "vision weight conversion")), nullptr;
        return weights_.emplace(w.data, std::move(f32)).first->second.as<float>();
    }

    cudaStream_t stream_ = nullptr;
    cublasHandle_t blas_ = nullptr;
    DeviceBuffer a_, b_, c_, d_, px_, py_;
    std::map<const std::byte*, DeviceBuffer> weights_;
    std::string status_;
};

}  // namespace

std::unique_ptr<ops::VisionOps> make_cuda_vision_ops() {
    return std::make_unique<CudaVisionOps>();
}

}  // namespace engine::cuda
