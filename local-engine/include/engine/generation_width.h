#pragma once
// The canvas width a generation denoises at a time (MODEL-SPEC section 7): the request's own
// width when it names one, else the model's canvas_length cut to the token budget. One rule for
// the engine's generator and for whatever lays out the canvases ahead of it (`dgem plan
// --generative`, the demo model's corpus), so that the two never disagree.

#include <algorithm>

namespace engine {

constexpr int generation_canvas_width(int model_canvas_length, int requested_width,
                                      int max_new_tokens) {
    return requested_width > 0 ? requested_width : std::min(model_canvas_length, max_new_tokens);
}

}  // namespace engine
