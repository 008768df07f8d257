#pragma once
// What the decide module asks of whoever holds the model: read some canvas rows of one group of a
// canvas plan, and (optionally) write a thought. The local engine reads rows in this process;
// the vLLM structured-read protocol reads them one HTTP request per row. Everything else about
// a decision (planning, stages, thinking, the "auto" samples policy, aggregation, diagnostics)
// is the plan executor's (core/decide/plan_executor.h), written once for every reader.

#include <optional>
#include <vector>

#include "core/decide/backend.h"
#include "core/decide/canvas_plan.h"
#include "core/decide/read_stats.h"

namespace core {

// The reads of some rows of one group: per row (in the order asked), per slot of the group.
struct RowReads {
    std::vector<std::vector<SlotRead>> rows;
    int cached_prompt_tokens = 0;  // the most prompt tokens a row took from a prefix cache
    // This call's time as the reader measured it: the engine's encode/decode/readout and the
    // wait behind other calls (local), or the wall time and what the server said it spent.
    Timings timings;
    std::optional<double> server_ms;  // remote: the server's own time, when every reply said
};

// A thought written before the reads (schema "think").
struct WrittenThought {
    std::vector<TokenId> ids;
    std::string text;
    bool closed = false;  // ended by the stop id within the budget
    int passes = 0;
    double encode_ms = 0, decode_ms = 0;
};

struct ThoughtRequest {
    std::vector<TokenId> prompt_ids;
    int max_tokens = 0;
    uint64_t seed = 0;
    TokenId stop_id = 0;
};

class RowReader {
  public:
    virtual ~RowReader() = default;
    // Reads `rows` (all of group `group`) of `plan`: the group's prompt, each row's canvas.
    virtual Result<RowReads> read_rows(const CanvasPlan& plan, int group,
                                       const std::vector<PlanRow>& rows,
                                       const CancelToken& cancel) = 0;
    // Writes a thought after a prompt: readers that can generate (the local engine).
    virtual Result<WrittenThought> write_thought(const ThoughtRequest& request,
                                                 const ProgressFn& progress,
                                                 const CancelToken& cancel) = 0;
};

}  // namespace core
