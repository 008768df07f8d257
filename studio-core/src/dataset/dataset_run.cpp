// The dataset-run use case: rows streamed through the evaluation runner, journaled in row order.
#include "core/dataset/dataset_run.h"

#include <unistd.h>

#include <chrono>
#include <cstring>
#include <fstream>

#include "base/time.h"

namespace core::dataset {

namespace {

using nlohmann::json;

constexpr const char* kJournalKind = "decision-studio dataset journal";
// Each row is written to the journal as it is journaled (a killed process loses none); fsync
// runs at most this often, not once per row (a row takes milliseconds on a small model).
constexpr double kJournalSyncS = 0.2;

json samples_json(const std::optional<Samples>& s) {
    if (!s) return nullptr;
    if (s->automatic) return "auto";
    return s->count;
}

json dataset_header(const DatasetPlan& plan, const eval::RunSettings& settings,
                    const std::string& backend) {
    return {{"journal", kJournalKind},
            {"format", 1},
            {"dataset", plan.data_path.string()},
            {"dataset_format", std::string(to_string(plan.shape.format))},
            {"dataset_sha256", plan.data_sha256},
            {"rows", plan.shape.rows},
            {"policy", plan.policy.name},
            {"policy_sha256", plan.policy_sha256},
            {"map", plan.column_map},
            {"settings",
             {{"seed", settings.seed},
              {"mode", std::string(eval::to_string(settings.mode))},
              {"samples", samples_json(settings.samples)},
              {"workers", settings.workers},
              {"item_timeout_s", settings.item_timeout_s},
              {"retries", settings.retries}}},
            {"backend", backend},
            {"program_version", settings.program_version},
            {"started_utc", base::utc_now()},
            {"extra", settings.extra}};
}

// A journal written for another file, policy, mapping or settings is not continued.
Result<void> check_resumable(const std::string& jp, const json& was, const json& now) {
    if (was.value("journal", "") != kJournalKind)
        return engine::bad_input(jp +
                                 ":1: not a dataset journal; move it away or name another "
                                 "with --journal");
    for (const char* ptr : {"/dataset_sha256", "/policy_sha256", "/map", "/settings/seed",
                            "/settings/samples", "/settings/mode"}) {
        const json::json_pointer p(ptr);
        const json a = was.contains(p) ? was.at(p) : json();
        const json b = now.at(p);
        if (a != b)
            return engine::bad_input(
                jp + ":1: field " + std::string(ptr + 1) + ": the journal was written with " +
                a.dump() + ", this run has " + b.dump() + "; run without --resume to start over");
    }
    return {};
}

struct JournalState {
    json header;
    std::size_t rows = 0, failed = 0;
};

// An existing journal read line by line (never whole): the header checked against `now`, rows
// 1..k in order counted, a half-written last line cut off.
Result<JournalState> resume_journal(const std::string& jp, const json& now) {
    std::ifstream in(jp, std::ios::binary);
    if (!in) return engine::bad_input(jp + ": cannot read the journal");
    JournalState st;
    std::string line;
    std::size_t valid = 0, n = 0;
    while (std::getline(in, line)) {
        if (in.eof()) break;  // no '\n' after it: cut mid-way by a kill
        ++n;
        const json j = json::parse(line, nullptr, false);
        if (j.is_discarded() || !j.is_object()) {
            if (n == 1)
                return engine::bad_input(jp +
                                         ":1: not a dataset journal; move it away or name "
                                         "another with --journal");
            // The journal is fsync'd every kJournalSyncS: a power loss can leave its tail
            // damaged. Rows from here on run again.
            break;
        }
        if (n == 1) {
            if (auto ok = check_resumable(jp, j, now); !ok) return ok.error();
            st.header = j;
        } else {
            auto o = RowOutcome::from_json(j);
            if (!o)
                return engine::bad_input(jp + ":" + std::to_string(n) + ": " + o.error().message);
            if (o->row != st.rows + 1)
                return engine::bad_input(jp + ":" + std::to_string(n) + ": row " +
                                         std::to_string(o->row) + " where row " +
                                         std::to_string(st.rows + 1) + " belongs");
            st.rows++;
            if (!o->record.ok) st.failed++;
        }
        valid += line.size() + 1;
    }
    in.close();
    if (st.header.is_null()) return st;
    std::error_code ec;
    if (std::filesystem::file_size(jp, ec) > valid &&
        ::truncate(jp.c_str(), static_cast<off_t>(valid)) != 0)
        return engine::bad_input(jp + ": cannot cut its half-written last line (" +
                                 std::strerror(errno) + ")");
    return st;
}

// The rows as the runner's stream: read as workers ask, journaled in row order.
class DatasetStream : public eval::ItemStream {
  public:
    DatasetStream(const DatasetPlan& plan, DataReader& reader, eval::JournalWriter& journal,
                  std::size_t next_row,
                  const std::function<void(const DataRow&, const RowOutcome&)>& on_row)
        : plan_(plan), reader_(reader), journal_(journal), next_write_(next_row), on_row_(on_row) {}

    std::optional<eval::StreamedItem> next() override {
        DataRow row;
        if (!reader_.next(row) || row.number > plan_.shape.rows) return std::nullopt;
        eval::StreamedItem item = row_item(plan_, row);
        InFlight& f = in_flight_[item.seq];
        for (const auto& q : item.item.questions)
            if (!q.expected.empty()) f.expected[q.id] = q.expected;
        if (on_row_) f.row = std::move(row);
        return item;
    }

    Result<void> finished(std::size_t seq, eval::ItemRecord record) override {
        auto f = in_flight_.find(seq);
        waiting_.emplace(
            seq, std::make_pair(RowOutcome{seq, std::move(record), std::move(f->second.expected)},
                                std::move(f->second.row)));
        in_flight_.erase(f);
        while (!waiting_.empty() && waiting_.begin()->first == next_write_) {
            const auto& [outcome, row] = waiting_.begin()->second;
            if (auto w = journal_.append(outcome.to_json()); !w) return w;
            if (on_row_) on_row_(row, outcome);
            waiting_.erase(waiting_.begin());
            ++next_write_;
        }
        return {};
    }

    std::size_t journaled() const { return next_write_ - 1; }

  private:
    const DatasetPlan& plan_;
    DataReader& reader_;
    eval::JournalWriter& journal_;
    struct InFlight {
        std::map<std::string, std::string> expected;
        DataRow row;  // kept only for on_row
    };
    std::size_t next_write_;  // the row number the journal takes next
    const std::function<void(const DataRow&, const RowOutcome&)>& on_row_;
    std::map<std::size_t, InFlight> in_flight_;
    // Finished, behind an earlier row still in flight.
    std::map<std::size_t, std::pair<RowOutcome, DataRow>> waiting_;
};

}  // namespace

int default_rows_in_flight(const Backend& backend) {
    return backend.model_facts() ? kLocalRowsInFlight : 1;
}

Result<DatasetResult> run_dataset(std::shared_ptr<Backend> backend, const DatasetRunInput& input,
                                  const eval::RunProgressFn& progress, const CancelToken& cancel) {
    const auto started = std::chrono::steady_clock::now();
    const DatasetPlan& plan = input.plan;
    const std::string& jp = input.settings.journal_path;
    if (jp.empty()) return engine::bad_input("a dataset run needs a journal file");
    DatasetResult result;
    result.backend = backend->describe();
    json header = dataset_header(plan, input.settings, result.backend);
    JournalState state;
    std::error_code ec;
    if (input.settings.resume && std::filesystem::exists(jp, ec)) {
        auto st = resume_journal(jp, header);
        if (!st) return st.error();
        state = std::move(*st);
    }
    if (state.header.is_null()) {
        if (auto w = eval::write_file_atomic(jp, header.dump() + "\n"); !w) return w.error();
    } else {
        header["started_utc"] = state.header.value("started_utc", header["started_utc"]);
        header["resumed_utc"] = base::utc_now();
    }
    result.header = header;
    result.resumed = state.rows;
    eval::JournalWriter journal;
    if (auto o = journal.open(jp, kJournalSyncS); !o) return o.error();
    auto reader = DataReader::open(plan.data_path);
    if (!reader) return reader.error();
    DataRow skipped;
    for (std::size_t i = 0; i < state.rows && (*reader)->next(skipped); ++i) {
    }
    DatasetStream stream(plan, **reader, journal, state.rows + 1, input.on_row);
    eval::EvalRunner runner(std::move(backend), input.settings);
    auto ran =
        runner.run_stream(stream, {plan.shape.rows, state.rows, state.failed}, progress, cancel);
    if (!ran) return ran.error();
    if (auto synced = journal.sync(); !synced) return synced.error();
    result.cancelled = *ran || stream.journaled() < plan.shape.rows;
    if (!result.cancelled) {
        auto summary = summarize_dataset(plan, jp, input.output_path);
        if (!summary) return summary.error();
        result.summary = std::move(*summary);
    }
    result.wall_s = base::seconds_since(started);
    return result;
}

Result<std::size_t> visit_journal_rows(
    const DatasetPlan& plan, const std::string& journal_path,
    const std::function<Result<void>(const DataRow&, const RowOutcome&)>& visit) {
    std::ifstream journal(journal_path, std::ios::binary);
    if (!journal) return engine::bad_input(journal_path + ": cannot read the journal");
    auto reader = DataReader::open(plan.data_path);
    if (!reader) return reader.error();
    std::string line;
    std::getline(journal, line);  // the header
    std::size_t n = 1, visited = 0;
    DataRow row;
    while ((*reader)->next(row) && row.number <= plan.shape.rows) {
        ++n;
        if (!std::getline(journal, line) || journal.eof()) break;
        const json j = json::parse(line, nullptr, false);
        auto o = j.is_object() ? RowOutcome::from_json(j)
                               : Result<RowOutcome>(engine::bad_input("not a journal record"));
        if (!o)
            return engine::bad_input(journal_path + ":" + std::to_string(n) + ": " +
                                     o.error().message);
        if (o->row != row.number || o->record.id != row.id)
            return engine::bad_input(journal_path + ":" + std::to_string(n) + ": row " +
                                     std::to_string(o->row) + " (id " + o->record.id +
                                     ") where the data file has row " + std::to_string(row.number) +
                                     " (id " + row.id + ")");
        if (auto v = visit(row, *o); !v) return v.error();
        ++visited;
    }
    return visited;
}

Result<DatasetSummary> summarize_dataset(const DatasetPlan& plan, const std::string& journal_path,
                                         const std::string& output_path) {
    std::unique_ptr<ResultWriter> writer;
    if (!output_path.empty()) {
        auto w = ResultWriter::open(output_path, plan);
        if (!w) return w.error();
        writer = std::move(*w);
    }
    DatasetSummary summary = empty_summary(plan);
    auto visited = visit_journal_rows(plan, journal_path,
                                      [&](const DataRow& row, const RowOutcome& o) -> Result<void> {
                                          tally(summary, row, o);
                                          if (writer) return writer->write(row, o);
                                          return {};
                                      });
    if (!visited) return visited.error();
    if (*visited < plan.shape.rows)
        return engine::bad_input(journal_path + ": holds " + std::to_string(*visited) + " of " +
                                 std::to_string(plan.shape.rows) +
                                 " rows; run again with --resume to finish");
    if (writer)
        if (auto c = writer->commit(); !c) return c.error();
    return summary;
}

}  // namespace core::dataset
