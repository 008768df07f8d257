#pragma once
// The canvas plan of the open policy, rebuilt off the UI thread (debounced) whenever the schema,
// the state, the layout switch, the seed or the tokenizer change; and the token chips the
// canvas view draws from it (prompt and canvas of one read group, slots of the chosen draw).

#include <QFutureWatcher>
#include <QObject>
#include <QTimer>
#include <map>
#include <memory>
#include <optional>

#include "core/decide/canvas_plan.h"

namespace ui {

struct TokenChip {
    int position = 0;  // index in the prompt or the canvas
    int32_t id = 0;
    QString text;  // shown on the chip
    bool slot = false;
    bool special = false;
    bool padding = false;
    bool image = false;    // one chip for an image's soft tokens
    int image_tokens = 0;  // how many (0: the model that reads it places them)
    QString question;      // slots: the question id; images: the image's file or URL
    QStringList labels;    // slots: label texts
    QList<int32_t> label_ids;
};

class CanvasModel : public QObject {
    Q_OBJECT
  public:
    explicit CanvasModel(QObject* parent = nullptr);

    void setTokenizer(std::shared_ptr<const engine::Tokenizer> tokenizer);
    bool hasTokenizer() const { return tokenizer_ != nullptr; }
    void setInput(const core::Schema& schema, const nlohmann::ordered_json& state);
    void setLayout(core::Layout layout);
    core::Layout layout() const { return layout_; }
    void setSeed(uint64_t seed);
    uint64_t seed() const { return seed_; }
    void setGroup(int group);
    int group() const { return group_; }
    void setDraw(int draw);
    // The thought the last run wrote (schema "think"): the prompt shows it where the model wrote
    // it, before the canvas. Cleared when the policy or its state changes.
    void setThought(std::vector<int32_t> ids);
    // The decision's images (file names or URLs, in order): one chip each in the prompt, at
    // the start of the user turn where the chat template places them; `soft_tokens` has, per
    // image, how many soft tokens the model reads for it (0 or missing: not known here).
    void setImages(QStringList sources, std::vector<int> soft_tokens = {});
    bool hasThought() const { return !thought_.empty(); }
    // A wide question's finalists as the last run chose them (diagnostics.wide, by question
    // id): the plan then ends with the final round's read group(s) after Round 1's. Cleared
    // when the policy or its state changes.
    void setFinalists(std::map<std::string, std::vector<std::string>> finalists);
    int finalGroups() const;  // how many of the plan's groups are the final's (0 before a run)
    int draw() const { return draw_; }
    void setDebounceMs(int ms) { timer_.setInterval(ms); }

    // Builds now and waits (tests).
    bool rebuildNow();
    bool building() const { return watcher_.isRunning(); }

    const std::optional<core::CanvasPlan>& plan() const { return plan_; }
    QString error() const { return error_; }
    std::vector<TokenChip> promptChips() const;
    std::vector<TokenChip> canvasChips() const;
    // The canvas of the chosen draw of the chosen group.
    std::vector<int32_t> drawCanvas() const;
    QString summary() const;

  Q_SIGNALS:
    void planChanged();  // also on errors (plan() empty, error() set)

  private:
    void schedule();
    void startBuild();
    QString chipText(int32_t id) const;

    std::shared_ptr<const engine::Tokenizer> tokenizer_;
    std::optional<core::Schema> schema_;
    nlohmann::ordered_json state_;
    std::map<std::string, std::vector<std::string>> finalists_;
    int final_groups_ = 0;
    core::Layout layout_ = core::Layout::DocumentFirst;
    uint64_t seed_ = 42;
    int group_ = 0;
    int draw_ = 0;
    std::vector<int32_t> thought_;
    QStringList images_;
    std::vector<int> image_tokens_;
    std::optional<core::CanvasPlan> plan_;
    QString error_;
    QTimer timer_;
    bool pending_ = false;
    QFutureWatcher<core::Result<core::CanvasPlan>> watcher_;
};

}  // namespace ui
