#pragma once
// The decide module's one executor: a DecideRequest in, a Decision with typed diagnostics out,
// over any RowReader (core/decide/row_reader.h). It plans the canvases (core/decide/canvas_plan.h),
// writes the thought first when the schema thinks, reads stage by stage when questions depend
// on each other (core/decide/stages.h), reads every group's first rows and the "auto" policy's
// extra rows where a group's first read hesitates, aggregates the reads per question
// (core/decide/read_stats.h) and records what it did.
//
// Where things go: a new read strategy (how a question becomes canvas rows and how its reads
// become one distribution) belongs here and in the planner; a new way to read rows (another
// engine, another wire protocol that reads canvases) is a RowReader; a protocol whose server
// runs the whole decision (the chat decision form, /v1/systemone) is a codec in core/wire/
// and a thin Backend.

#include <string>

#include "core/decide/row_reader.h"

namespace core {

struct ExecutorSetup {
    PlanOptions plan;                              // canvas length, image runs and ids
    const engine::Tokenizer* tokenizer = nullptr;  // the reader's model's
    int max_context = 0;                           // bounds a thought (0: no bound)
    std::string engine;                            // diagnostics "engine" ("local" or empty)
};

Result<Decision> execute_decision(const DecideRequest& request, const ExecutorSetup& setup,
                                  RowReader& reader, const ProgressFn& progress,
                                  const CancelToken& cancel);

}  // namespace core
