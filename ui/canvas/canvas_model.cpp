// The canvas model (see canvas_model.h).
#include "ui/canvas/canvas_model.h"

#include "core/decide/tournament.h"

#include <QCoreApplication>
#include <QtConcurrent/QtConcurrentRun>

namespace ui {

CanvasModel::CanvasModel(QObject* parent) : QObject(parent) {
    timer_.setSingleShot(true);
    timer_.setInterval(250);
    connect(&timer_, &QTimer::timeout, this, &CanvasModel::startBuild);
    connect(&watcher_, &QFutureWatcherBase::finished, this, [this] {
        auto result = watcher_.result();
        if (result) {
            plan_ = std::move(result.value());
            error_.clear();
            // The final round's groups read a tournament question under its own id.
            final_groups_ = 0;
            if (schema_)
                for (const auto& g : plan_->groups)
                    final_groups_ += std::any_of(
                        g.answer_slots.begin(), g.answer_slots.end(), [this](const auto& slot) {
                            return std::any_of(schema_->questions.begin(), schema_->questions.end(),
                                               [&](const core::Question& q) {
                                                   return q.is_tournament() &&
                                                          q.id == slot.question;
                                               });
                        });
            group_ = std::clamp(group_, 0, std::max(0, int(plan_->groups.size()) - 1));
        } else {
            plan_.reset();
            error_ = QString::fromStdString(result.error().message);
        }
        Q_EMIT planChanged();
        if (pending_) startBuild();  // the input changed while building
    });
}

void CanvasModel::setTokenizer(std::shared_ptr<const engine::Tokenizer> tokenizer) {
    tokenizer_ = std::move(tokenizer);
    schedule();
}

void CanvasModel::setInput(const core::Schema& schema, const nlohmann::ordered_json& state) {
    if (state_ != state || !schema_ ||
        core::schema_to_json(*schema_) != core::schema_to_json(schema)) {
        thought_.clear();  // a thought (and finalists) belong to the input they were read for
        finalists_.clear();
    }
    schema_ = schema;
    state_ = state;
    schedule();
}

void CanvasModel::setFinalists(std::map<std::string, std::vector<std::string>> finalists) {
    finalists_ = std::move(finalists);
    schedule();
}

int CanvasModel::finalGroups() const {
    return plan_ ? final_groups_ : 0;
}

namespace {

// Round 1's plan followed by the final round's groups and first reads (their seeds go on from
// Round 1's groups, as the plan executor reads them).
core::Result<core::CanvasPlan> with_final_round(core::CanvasPlan round1, const core::Schema& schema,
                                                const nlohmann::ordered_json& state,
                                                const engine::Tokenizer& tokenizer,
                                                core::PlanOptions options,
                                                const std::vector<std::vector<int>>& finalists) {
    const core::RoundOne one = core::round_one(schema);
    options.first_group = static_cast<int>(round1.groups.size());
    options.indexed = schema.questions.size() > 10;
    options.canvas_questions = core::round_canvas_questions(schema);
    const core::Schema finals = core::final_round(schema, one, finalists);
    for (int i = 0; i < static_cast<int>(finals.questions.size()); ++i)
        options.questions.push_back(i);
    auto final_plan = core::build_plan(finals, state, tokenizer, options);
    if (!final_plan) return final_plan.error();
    const int offset = static_cast<int>(round1.groups.size());
    for (auto& g : final_plan->groups) round1.groups.push_back(std::move(g));
    for (auto row : final_plan->rows) {
        row.group += offset;
        round1.rows.push_back(std::move(row));
    }
    return round1;
}

}  // namespace

void CanvasModel::setThought(std::vector<int32_t> ids) {
    thought_ = std::move(ids);
    schedule();
}

void CanvasModel::setLayout(core::Layout layout) {
    if (layout_ == layout) return;
    layout_ = layout;
    schedule();
}

void CanvasModel::setSeed(uint64_t seed) {
    if (seed_ == seed) return;
    seed_ = seed;
    schedule();
}

void CanvasModel::setGroup(int group) {
    if (group_ == group) return;
    group_ = group;
    Q_EMIT planChanged();
}

void CanvasModel::setDraw(int draw) {
    if (draw_ == draw) return;
    draw_ = std::max(0, draw);
    Q_EMIT planChanged();
}

void CanvasModel::schedule() {
    timer_.start();
}

void CanvasModel::startBuild() {
    timer_.stop();
    if (!schema_ || !tokenizer_) {
        pending_ = false;
        plan_.reset();
        error_ = tokenizer_ ? tr("The policy has no valid schema yet.")
                            : tr("No tokenizer: choose a local model folder in Endpoints.");
        Q_EMIT planChanged();
        return;
    }
    if (watcher_.isRunning()) {
        pending_ = true;
        return;
    }
    pending_ = false;
    core::PlanOptions options;
    options.layout = layout_;
    options.seed = seed_;
    const core::RoundOne one = core::round_one(*schema_);
    const auto finalists = core::finalists_by_name(*schema_, one, finalists_);
    final_groups_ = 0;
    watcher_.setFuture(QtConcurrent::run([schema = *schema_, state = state_, tokenizer = tokenizer_,
                                          thought = thought_, options,
                                          finalists]() mutable -> core::Result<core::CanvasPlan> {
        if (schema.think > 0 && !thought.empty()) {
            // The read as it ran: the thought prompt, the thought, <channel|>, then the canvas.
            auto prompt = core::thought_prompt_ids(schema, state, *options.layout, *tokenizer);
            prompt.insert(prompt.end(), thought.begin(), thought.end());
            prompt.push_back(core::thought_close_id(*tokenizer));
            options.prefix = core::ReadPrefix{std::move(prompt), ""};
        }
        auto plan = core::build_plan(schema, state, *tokenizer, options);
        if (!plan || finalists.empty()) return plan;
        return with_final_round(std::move(*plan), schema, state, *tokenizer, options, finalists);
    }));
}

bool CanvasModel::rebuildNow() {
    startBuild();
    while (watcher_.isRunning() || pending_) {
        watcher_.waitForFinished();
        QCoreApplication::processEvents();
    }
    QCoreApplication::processEvents();
    return plan_.has_value();
}

QString CanvasModel::chipText(int32_t id) const {
    if (!tokenizer_) return QString::number(id);
    std::string piece = tokenizer_->piece(id);
    if (piece == "<0x0A>" || piece == "\n") return QStringLiteral("↵");
    QString text = QString::fromStdString(piece);
    text.replace(QStringLiteral("▁"), QStringLiteral("·"));
    text.replace(QLatin1Char('\n'), QStringLiteral("↵"));
    if (text.size() > 24) text = text.left(23) + QStringLiteral("…");
    return text;
}

std::vector<TokenChip> CanvasModel::promptChips() const {
    std::vector<TokenChip> chips;
    if (!plan_ || group_ >= int(plan_->groups.size())) return chips;
    const auto& ids = plan_->groups[size_t(group_)].prompt_ids;
    for (size_t i = 0; i < ids.size(); ++i) {
        TokenChip c;
        c.position = int(i);
        c.id = ids[i];
        c.text = chipText(ids[i]);
        c.special = tokenizer_ && tokenizer_->is_special(ids[i]);
        chips.push_back(c);
    }
    if (images_.isEmpty() || !tokenizer_) return chips;
    const size_t at = core::image_run_position(ids, *tokenizer_);
    std::vector<TokenChip> images;
    for (int k = 0; k < images_.size(); ++k) {
        TokenChip c;
        c.position = int(at);
        c.image = true;
        c.image_tokens = size_t(k) < image_tokens_.size() ? image_tokens_[size_t(k)] : 0;
        c.question = images_[k];
        c.text = c.image_tokens > 0
                     ? tr("image %1 · %n token(s)", nullptr, c.image_tokens).arg(k + 1)
                     : tr("image %1").arg(k + 1);
        images.push_back(c);
    }
    chips.insert(chips.begin() + std::ptrdiff_t(at), images.begin(), images.end());
    return chips;
}

void CanvasModel::setImages(QStringList sources, std::vector<int> soft_tokens) {
    if (sources == images_ && soft_tokens == image_tokens_) return;
    images_ = std::move(sources);
    image_tokens_ = std::move(soft_tokens);
    Q_EMIT planChanged();
}

std::vector<int32_t> CanvasModel::drawCanvas() const {
    if (!plan_ || group_ >= int(plan_->groups.size())) return {};
    const core::ReadGroup& g = plan_->groups[size_t(group_)];
    // The first reads are in plan.rows; any other draw follows the same seed rule.
    for (const auto& row : plan_->rows)
        if (row.group == group_ && row.draw == draw_ && !row.extension) return row.canvas_ids;
    return core::noise_canvas(g, g.seed + core::kDrawSeedStep * uint64_t(draw_), plan_->seed_token);
}

std::vector<TokenChip> CanvasModel::canvasChips() const {
    std::vector<TokenChip> chips;
    if (!plan_ || group_ >= int(plan_->groups.size())) return chips;
    const core::ReadGroup& g = plan_->groups[size_t(group_)];
    const auto ids = drawCanvas();
    for (size_t i = 0; i < ids.size(); ++i) {
        TokenChip c;
        c.position = int(i);
        c.id = ids[i];
        c.text = chipText(ids[i]);
        c.special = tokenizer_ && tokenizer_->is_special(ids[i]);
        c.padding = ids[i] == engine::tokens::kPad && int(i) > g.template_length;
        for (const auto& slot : g.answer_slots) {
            if (slot.pos != int(i)) continue;
            c.slot = true;
            c.question = QString::fromStdString(slot.question);
            for (const auto& l : slot.labels) c.labels << QString::fromStdString(l);
            for (auto id : slot.label_ids) c.label_ids << id;
        }
        chips.push_back(c);
    }
    return chips;
}

QString CanvasModel::summary() const {
    if (!plan_) return error_;
    const core::ReadGroup& g =
        plan_->groups[size_t(std::min<int>(group_, int(plan_->groups.size()) - 1))];
    QString staged;
    if (plan_->staged && schema_) {
        const int stages = int(core::question_stages(*schema_).size());
        if (stages > 1)
            staged = tr(" · stage 1 of %1 (later stages add the answers before them)").arg(stages);
        if (plan_->thought_pending)
            staged +=
                tr(" · thinks first (up to %1 tokens; run to see the thought)").arg(schema_->think);
        else if (schema_->think > 0)
            staged += tr(" · after the last run's thought (%1 tokens)").arg(thought_.size());
    }
    if (schema_ && core::has_tournament(*schema_))
        for (const auto& w : core::round_one(*schema_).wide)
            staged += tr(" · round 1 of %1's tournament: %2 brackets of its %3 options (the "
                         "final reads each bracket's leaders after this read)")
                          .arg(QString::fromStdString(schema_->questions[w.tournament.question].id))
                          .arg(w.tournament.brackets.size())
                          .arg(schema_->questions[w.tournament.question].options.size());
    if (final_groups_ > 0)
        staged += tr(" · the last %n group(s): the final over the last run's finalists", nullptr,
                     final_groups_);
    return tr("%1 · prompt %2 tokens · canvas width %3 (answer %4 tokens) · %5 slot(s) · "
              "%6 read group(s) · %7 first read(s)")
               .arg(plan_->layout == core::Layout::SchemaFirst ? tr("schema first")
                                                               : tr("document first"))
               .arg(g.prompt_ids.size())
               .arg(g.width)
               .arg(g.template_length)
               .arg(g.answer_slots.size())
               .arg(plan_->groups.size())
               .arg(plan_->rows.size()) +
           staged;
}

}  // namespace ui
