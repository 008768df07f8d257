<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ja" sourcelanguage="en">
<context>
    <name>QObject</name>
    <message>
        <source>…</source>
        <translation>…</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>なし</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>はい</translation>
    </message>
    <message>
        <source>no</source>
        <translation>いいえ</translation>
    </message>
    <message>
        <source>slot %1 · generative %2</source>
        <translation>スロット %1 · 生成 %2</translation>
    </message>
    <message>
        <source>%1 of %2 answered by both</source>
        <translation>%2 問中 %1 問を両方が回答</translation>
    </message>
    <message>
        <source>no answer</source>
        <translation>回答なし</translation>
    </message>
    <message>
        <source>valid JSON</source>
        <translation>有効な JSON</translation>
    </message>
    <message>
        <source>invalid: %1</source>
        <translation>無効: %1</translation>
    </message>
</context>
<context>
    <name>core::BackendRunner</name>
    <message>
        <source>loading model</source>
        <translation>モデルを読み込み中</translation>
    </message>
    <message>
        <source>planning</source>
        <translation>計画中</translation>
    </message>
    <message>
        <source>encoding</source>
        <translation>エンコード中</translation>
    </message>
    <message>
        <source>thinking</source>
        <translation>思考中</translation>
    </message>
    <message>
        <source>decoding</source>
        <translation>デコード中</translation>
    </message>
    <message>
        <source>generating</source>
        <translation>生成中</translation>
    </message>
    <message>
        <source>waiting for server</source>
        <translation>サーバーを待機中</translation>
    </message>
    <message>
        <source>reading canvas rows</source>
        <translation>キャンバス行を読み取り中</translation>
    </message>
    <message>
        <source>done</source>
        <translation>完了</translation>
    </message>
    <message>
        <source>decoding canvas %1</source>
        <translation>キャンバス %1 をデコード中</translation>
    </message>
    <message>
        <source>asking stage 2</source>
        <translation>ステージ2に問い合わせ中</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Single-pass structured decisions with DiffusionGemma</source>
        <translation>DiffusionGemma による単一パスの構造化意思決定</translation>
    </message>
    <message>
        <source>Use the dark palette.</source>
        <translation>ダークパレットを使用します。</translation>
    </message>
    <message>
        <source>Use the light palette.</source>
        <translation>ライトパレットを使用します。</translation>
    </message>
    <message>
        <source>Open this policy (name).</source>
        <translation>このポリシーを開きます（名前）。</translation>
    </message>
    <message>
        <source>NAME</source>
        <translation>名前</translation>
    </message>
    <message>
        <source>Show the Studio in this language: de, ja or en (default: the system locale&apos;s).</source>
        <translation>Studio をこの言語で表示します: de、ja、en（既定: システムのロケール）。</translation>
    </message>
    <message>
        <source>LANG</source>
        <translation>言語</translation>
    </message>
</context>
<context>
    <name>ui::BenchItemsModel</name>
    <message>
        <source>(failed)</source>
        <translation>（失敗）</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>はい</translation>
    </message>
    <message>
        <source>no</source>
        <translation>いいえ</translation>
    </message>
    <message>
        <source>Item</source>
        <translation>項目</translation>
    </message>
    <message>
        <source>Tier</source>
        <translation>ティア</translation>
    </message>
    <message>
        <source>Family</source>
        <translation>ファミリー</translation>
    </message>
    <message>
        <source>Expected</source>
        <translation>期待値</translation>
    </message>
    <message>
        <source>Predicted</source>
        <translation>予測</translation>
    </message>
    <message>
        <source>p</source>
        <translation>p</translation>
    </message>
    <message>
        <source>Correct</source>
        <translation>正解</translation>
    </message>
    <message>
        <source>Latency (ms)</source>
        <translation>レイテンシ (ms)</translation>
    </message>
</context>
<context>
    <name>ui::BenchWindow</name>
    <message>
        <source>Bench — Decision Studio</source>
        <translation>ベンチ — Decision Studio</translation>
    </message>
    <message>
        <source>JevBench v1.4 public items</source>
        <translation>JevBench v1.4 公開項目</translation>
    </message>
    <message>
        <source>Shipped suite: %1</source>
        <translation>同梱スイート: %1</translation>
    </message>
    <message>
        <source>Open suite…</source>
        <translation>スイートを開く…</translation>
    </message>
    <message>
        <source>How Speed is scored (JevBench endpoint kinds)</source>
        <translation>速度の採点方法（JevBench のエンドポイント種別）</translation>
    </message>
    <message>
        <source>all</source>
        <translation>すべて</translation>
    </message>
    <message>
        <source>slot</source>
        <translation>スロット</translation>
    </message>
    <message>
        <source>generative</source>
        <translation>生成</translation>
    </message>
    <message>
        <source>both</source>
        <translation>両方</translation>
    </message>
    <message>
        <source>How each item is asked: the slot readout (one pass), generative JSON (parsed strictly), or both one after the other on the same endpoint</source>
        <translation>各項目の問い方: スロット読み出し（1 パス）、生成 JSON（厳密に解析）、または同じエンドポイントで両方を順に実行</translation>
    </message>
    <message>
        <source>auto</source>
        <translation>自動</translation>
    </message>
    <message>
        <source>Completion tokens a generative answer may use (auto: what the item&apos;s questions need)</source>
        <translation>生成回答が使える補完トークン数（自動: 項目の質問に必要な数）</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>実行</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>キャンセル</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>再開</translation>
    </message>
    <message>
        <source>Continue the selected interrupted run from its journal</source>
        <translation>選択した中断済みの実行をジャーナルから再開します</translation>
    </message>
    <message>
        <source>Export re&amp;port…</source>
        <translation>レポートをエクスポート(&amp;P)…</translation>
    </message>
    <message>
        <source>The shown run as a report: HTML, PDF, CSV or JSON, with a preview (Ctrl+Shift+E)</source>
        <translation>表示中の実行をレポートに: HTML、PDF、CSV、JSON（プレビュー付き、Ctrl+Shift+E）</translation>
    </message>
    <message>
        <source>Export report…</source>
        <translation>レポートをエクスポート…</translation>
    </message>
    <message>
        <source>Suite:</source>
        <translation>スイート:</translation>
    </message>
    <message>
        <source>Endpoint:</source>
        <translation>エンドポイント:</translation>
    </message>
    <message>
        <source>Workers:</source>
        <translation>ワーカー:</translation>
    </message>
    <message>
        <source>Items:</source>
        <translation>項目数:</translation>
    </message>
    <message>
        <source>Mode:</source>
        <translation>モード:</translation>
    </message>
    <message>
        <source>Max tokens:</source>
        <translation>最大トークン数:</translation>
    </message>
    <message>
        <source>Pick a suite and an endpoint, then Run.</source>
        <translation>スイートとエンドポイントを選んで「実行」を押してください。</translation>
    </message>
    <message>
        <source>Filter items (id, tier, family, labels…)</source>
        <translation>項目を絞り込み（ID、ティア、ファミリー、ラベル…）</translation>
    </message>
    <message>
        <source>Items</source>
        <translation>項目</translation>
    </message>
    <message>
        <source>Charts</source>
        <translation>グラフ</translation>
    </message>
    <message>
        <source>Slot vs generative</source>
        <translation>スロット対生成</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>実行履歴</translation>
    </message>
    <message>
        <source>Open a suite</source>
        <translation>スイートを開く</translation>
    </message>
    <message>
        <source>Suites (*.jsonl *.json);;All files (*)</source>
        <translation>スイート (*.jsonl *.json);;すべてのファイル (*)</translation>
    </message>
    <message>
        <source>bench item %1</source>
        <translation>ベンチ項目 %1</translation>
    </message>
    <message>
        <source>%1: %2 items</source>
        <translation>%1: %2 項目</translation>
    </message>
    <message>
        <source>Cannot create the run folder %1</source>
        <translation>実行フォルダー %1 を作成できません</translation>
    </message>
    <message>
        <source>%1: no run.json; not a kept run</source>
        <translation>%1: run.json がありません。保存された実行ではありません</translation>
    </message>
    <message>
        <source>No endpoint: add one in Endpoints (Ctrl+E).</source>
        <translation>エンドポイントがありません。「エンドポイント」で追加してください（Ctrl+E）。</translation>
    </message>
    <message>
        <source>Resuming…</source>
        <translation>再開中…</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>開始中…</translation>
    </message>
    <message>
        <source>%1 / %2 items · %3 failed · %4 items/s · ETA %5</source>
        <translation>%1 / %2 項目 · 失敗 %3 · %4 項目/秒 · 残り %5</translation>
    </message>
    <message>
        <source> · %1 from the journal</source>
        <translation> · ジャーナルから %1</translation>
    </message>
    <message>
        <source>Cancelled after %1 of %2 items; Resume continues it</source>
        <translation>%2 項目中 %1 項目で中止しました。「再開」で続行できます</translation>
    </message>
    <message>
        <source>Finished %1 items in %2 s</source>
        <translation>%1 項目を %2 秒で完了</translation>
    </message>
    <message>
        <source>&lt;b&gt;Accuracy&lt;/b&gt; %1% (%2/%3, %4 failed) · &lt;b&gt;Intelligence&lt;/b&gt; %5 · &lt;b&gt;Calibration&lt;/b&gt; %6 · &lt;b&gt;Speed&lt;/b&gt; %7 (p50 %8 s) · &lt;b&gt;Cost&lt;/b&gt; %9%10 · &lt;b&gt;Composite&lt;/b&gt; %11 &lt;i&gt;(public items only: an estimate, not a rank)&lt;/i&gt;</source>
        <translation>&lt;b&gt;正解率&lt;/b&gt; %1% (%2/%3、失敗 %4) · &lt;b&gt;知能&lt;/b&gt; %5 · &lt;b&gt;較正&lt;/b&gt; %6 · &lt;b&gt;速度&lt;/b&gt; %7 (p50 %8 秒) · &lt;b&gt;コスト&lt;/b&gt; %9%10 · &lt;b&gt;総合&lt;/b&gt; %11 &lt;i&gt;（公開項目のみ: 推定値であり順位ではありません）&lt;/i&gt;</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>なし</translation>
    </message>
    <message>
        <source> (estimate)</source>
        <translation>（推定）</translation>
    </message>
    <message>
        <source>&lt;b&gt;Cases correct&lt;/b&gt; %1% (%2/%3, %4 failed) · &lt;b&gt;Answers correct&lt;/b&gt; %5% · &lt;b&gt;Mean confidence&lt;/b&gt; %6 · &lt;b&gt;ECE&lt;/b&gt; %7 · &lt;b&gt;Brier&lt;/b&gt; %8 · &lt;b&gt;p50&lt;/b&gt; %9 s</source>
        <translation>&lt;b&gt;正解ケース&lt;/b&gt; %1% (%2/%3、失敗 %4) · &lt;b&gt;正解回答&lt;/b&gt; %5% · &lt;b&gt;平均信頼度&lt;/b&gt; %6 · &lt;b&gt;ECE&lt;/b&gt; %7 · &lt;b&gt;Brier&lt;/b&gt; %8 · &lt;b&gt;p50&lt;/b&gt; %9 秒</translation>
    </message>
    <message>
        <source>Reliability (all items)</source>
        <translation>信頼性（全項目）</translation>
    </message>
    <message>
        <source>Accuracy by tier</source>
        <translation>ティア別の正解率</translation>
    </message>
    <message>
        <source>Accuracy by family</source>
        <translation>ファミリー別の正解率</translation>
    </message>
    <message>
        <source>Reliability (every answer)</source>
        <translation>信頼性（全回答）</translation>
    </message>
    <message>
        <source>Accuracy by domain</source>
        <translation>分野別の正解率</translation>
    </message>
    <message>
        <source>&lt;b&gt;Slot&lt;/b&gt;: accuracy %1% (%2/%3) · p50 %4 · p95 %5 · %6 pass(es) &amp;nbsp;&amp;nbsp; &lt;b&gt;Generative&lt;/b&gt;: accuracy %7% (%8/%9) · valid JSON %10% (%11/%12) · p50 %13 · p95 %14 · %15 passes · %16 completion tokens (means) &amp;nbsp;&amp;nbsp; &lt;b&gt;Agreement&lt;/b&gt; %17% (%18 of %19 answers) · &lt;b&gt;latency ratio&lt;/b&gt; %20× (generative p50 / slot p50) · %21 items</source>
        <translation>&lt;b&gt;スロット&lt;/b&gt;: 正解率 %1% (%2/%3) · p50 %4 · p95 %5 · %6 パス &amp;nbsp;&amp;nbsp; &lt;b&gt;生成&lt;/b&gt;: 正解率 %7% (%8/%9) · 有効な JSON %10% (%11/%12) · p50 %13 · p95 %14 · %15 パス · 補完トークン %16（平均） &amp;nbsp;&amp;nbsp; &lt;b&gt;一致&lt;/b&gt; %17%（%19 回答中 %18） · &lt;b&gt;レイテンシ比&lt;/b&gt; %20×（生成 p50 / スロット p50） · %21 項目</translation>
    </message>
    <message>
        <source>%1 · %2 · %3 · %4</source>
        <translation>%1 · %2 · %3 · %4</translation>
    </message>
    <message>
        <source>Run %1 (%2): %3 of %4 items</source>
        <translation>実行 %1 (%2): %4 項目中 %3</translation>
    </message>
    <message>
        <source>Show all items</source>
        <translation>すべての項目を表示</translation>
    </message>
    <message numerus="yes">
        <source>Showing %n item(s) of %1</source>
        <translation>
            <numerusform>%1 の %n 件を表示中</numerusform>
        </translation>
    </message>
    <message>
        <source>Calibrate…</source>
        <translation>較正…</translation>
    </message>
    <message>
        <source>Fit the open policy&apos;s temperature from this run&apos;s labelled questions</source>
        <translation>この実行のラベル付き質問から、開いているポリシーの温度を当てはめる</translation>
    </message>
</context>
<context>
    <name>ui::CalibrateDialog</name>
    <message>
        <source>Calibrate — Decision Studio</source>
        <translation>較正 — Decision Studio</translation>
    </message>
    <message numerus="yes">
        <source>Fits the temperature per question type on %n labelled question(s) of %1 by minimising the held-out negative log-likelihood of the expected answer (a proper scoring rule: it is lowest when the probabilities mean what they say; a temperature never changes an answer). The figures are measured on the held-out folds.</source>
        <translation>
            <numerusform>%1 のラベル付き質問 %n 件で、期待される答えのホールドアウト負の対数尤度を最小化して質問タイプごとに温度を当てはめます（適切なスコアリング規則：確率が表す通りの意味を持つとき最小になり、温度は答えを変えません）。数値はホールドアウトしたフォールドで測定します。</numerusform>
        </translation>
    </message>
    <message>
        <source>Fitting…</source>
        <translation>当てはめ中…</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>タイプ</translation>
    </message>
    <message>
        <source>Questions</source>
        <translation>質問数</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <source>Search range</source>
        <translation>探索範囲</translation>
    </message>
    <message>
        <source>NLL</source>
        <translation>NLL</translation>
    </message>
    <message>
        <source>Brier</source>
        <translation>Brier</translation>
    </message>
    <message>
        <source>ECE</source>
        <translation>ECE</translation>
    </message>
    <message>
        <source>&amp;Write into policy</source>
        <translation>ポリシーに書き込む(&amp;W)</translation>
    </message>
    <message>
        <source>Cancel fit</source>
        <translation>当てはめを中止</translation>
    </message>
    <message>
        <source>Cancelled: nothing was fitted or written.</source>
        <translation>中止しました：何も当てはめず、書き込んでいません。</translation>
    </message>
    <message>
        <source>The fit failed: %1</source>
        <translation>当てはめに失敗しました：%1</translation>
    </message>
    <message>
        <source>not fitted</source>
        <translation>当てはめなし</translation>
    </message>
    <message>
        <source>at its edge</source>
        <translation>端に到達</translation>
    </message>
    <message>
        <source>inside</source>
        <translation>範囲内</translation>
    </message>
    <message>
        <source>1 (kept)</source>
        <translation>1（維持）</translation>
    </message>
    <message>
        <source>all</source>
        <translation>すべて</translation>
    </message>
    <message>
        <source>%1-fold cross-validation; the value written is the fit on every question of its type.</source>
        <translation>%1 分割交差検証。書き込む値はそのタイプの全質問での当てはめです。</translation>
    </message>
    <message>
        <source>Nothing was fitted: every question type has too few labelled questions. The policy is left as it is.</source>
        <translation>何も当てはめていません：どの質問タイプもラベル付き質問が少なすぎます。ポリシーはそのままです。</translation>
    </message>
    <message>
        <source>Every fit landed inside its search range %1.</source>
        <translation>すべての当てはめが探索範囲 %1 の内側に収まりました。</translation>
    </message>
    <message>
        <source>A fit ended at the edge of its search range %1: the best temperature may lie beyond it.</source>
        <translation>当てはめが探索範囲 %1 の端で終わりました：最適な温度は範囲外にある可能性があります。</translation>
    </message>
    <message>
        <source>Reliability before</source>
        <translation>較正前の信頼度</translation>
    </message>
    <message>
        <source>Reliability after</source>
        <translation>較正後の信頼度</translation>
    </message>
    <message>
        <source>There is no fit to write.</source>
        <translation>書き込む当てはめ結果がありません。</translation>
    </message>
    <message>
        <source>No policy is open to take the temperature.</source>
        <translation>温度を書き込むポリシーが開かれていません。</translation>
    </message>
    <message>
        <source>The policy cannot take the temperature: %1</source>
        <translation>ポリシーに温度を書き込めません：%1</translation>
    </message>
    <message>
        <source>Calibrate temperature</source>
        <translation>温度を較正</translation>
    </message>
    <message>
        <source>The policy already has this temperature.</source>
        <translation>ポリシーはすでにこの温度です。</translation>
    </message>
</context>
<context>
    <name>ui::CanvasModel</name>
    <message>
        <source>The policy has no valid schema yet.</source>
        <translation>ポリシーにはまだ有効なスキーマがありません。</translation>
    </message>
    <message>
        <source>No tokenizer: choose a local model folder in Endpoints.</source>
        <translation>トークナイザーがありません。「エンドポイント」でローカルモデルのフォルダーを選んでください。</translation>
    </message>
    <message>
        <source> · stage 1 of %1 (later stages add the answers before them)</source>
        <translation> · ステージ 1/%1（後のステージはそれまでの回答を加えます）</translation>
    </message>
    <message>
        <source> · thinks first (up to %1 tokens; run to see the thought)</source>
        <translation> · 先に思考します（最大 %1 トークン。実行すると思考内容を表示）</translation>
    </message>
    <message>
        <source> · after the last run&apos;s thought (%1 tokens)</source>
        <translation> · 前回の実行の思考の後（%1 トークン）</translation>
    </message>
    <message>
        <source>%1 · prompt %2 tokens · canvas width %3 (answer %4 tokens) · %5 slot(s) · %6 read group(s) · %7 first read(s)</source>
        <translation>%1 · プロンプト %2 トークン · キャンバス幅 %3（回答 %4 トークン） · スロット %5 · 読み取りグループ %6 · 初回読み取り %7</translation>
    </message>
    <message>
        <source>schema first</source>
        <translation>スキーマ優先</translation>
    </message>
    <message>
        <source>document first</source>
        <translation>ドキュメント優先</translation>
    </message>
    <message numerus="yes">
        <source>image %1 · %n token(s)</source>
        <translation>
            <numerusform>画像 %1 · %n トークン</numerusform>
        </translation>
    </message>
    <message>
        <source>image %1</source>
        <translation>画像 %1</translation>
    </message>
    <message>
        <source> · round 1 of %1&apos;s tournament: %2 brackets of its %3 options (the final reads each bracket&apos;s leaders after this read)</source>
        <translation> · %1 のトーナメントの第1ラウンド: %3 個の選択肢を %2 グループに分割（この読み取りの後、決勝で各グループの上位を読みます）</translation>
    </message>
    <message numerus="yes">
        <source> · the last %n group(s): the final over the last run&apos;s finalists</source>
        <translation>
            <numerusform> · 最後の %n グループ: 前回の実行の決勝進出候補による決勝</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ui::CanvasView</name>
    <message>
        <source>Document first</source>
        <translation>ドキュメント優先</translation>
    </message>
    <message>
        <source>Schema first</source>
        <translation>スキーマ優先</translation>
    </message>
    <message>
        <source>draw </source>
        <translation>ドロー </translation>
    </message>
    <message>
        <source>&amp;Layout</source>
        <translation>レイアウト(&amp;L)</translation>
    </message>
    <message>
        <source>S&amp;eed</source>
        <translation>シード(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Group</source>
        <translation>グループ(&amp;G)</translation>
    </message>
    <message>
        <source>&amp;Noise</source>
        <translation>ノイズ(&amp;N)</translation>
    </message>
    <message>
        <source>&lt;b&gt;Prompt&lt;/b&gt;</source>
        <translation>&lt;b&gt;プロンプト&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Canvas&lt;/b&gt; (answer slots outlined, with their labels)</source>
        <translation>&lt;b&gt;キャンバス&lt;/b&gt;（回答スロットを枠で囲み、ラベルを表示）</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>pos %1 · %2 · labels %3 · noise id %4</source>
        <translation>位置 %1 · %2 · ラベル %3 · ノイズ ID %4</translation>
    </message>
    <message>
        <source>Prompt tokens</source>
        <translation>プロンプトトークン</translation>
    </message>
    <message>
        <source>Canvas tokens</source>
        <translation>キャンバストークン</translation>
    </message>
</context>
<context>
    <name>ui::ChartWidget</name>
    <message>
        <source>Reset zoom</source>
        <translation>ズームをリセット</translation>
    </message>
    <message>
        <source>No data to chart</source>
        <translation>グラフにするデータがありません</translation>
    </message>
    <message>
        <source>%1: %2%3</source>
        <translation>%1: %2%3</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message numerus="yes">
        <source>%n item(s)</source>
        <translation>
            <numerusform>%n 件</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> and %n more</source>
        <translation>
            <numerusform> ほか %n 件</numerusform>
        </translation>
    </message>
    <message>
        <source>Save chart</source>
        <translation>グラフを保存</translation>
    </message>
    <message>
        <source>Copy image</source>
        <translation>画像をコピー</translation>
    </message>
    <message>
        <source>Save as PNG…</source>
        <translation>PNG として保存…</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG 画像 (*.png)</translation>
    </message>
    <message>
        <source>Save as SVG…</source>
        <translation>SVG として保存…</translation>
    </message>
    <message>
        <source>SVG images (*.svg)</source>
        <translation>SVG 画像 (*.svg)</translation>
    </message>
    <message>
        <source>Copy data as CSV</source>
        <translation>データを CSV としてコピー</translation>
    </message>
</context>
<context>
    <name>ui::CompareModel</name>
    <message>
        <source>(no valid value)</source>
        <translation>（有効な値なし）</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>はい</translation>
    </message>
    <message>
        <source>no</source>
        <translation>いいえ</translation>
    </message>
    <message>
        <source>Question</source>
        <translation>質問</translation>
    </message>
    <message>
        <source>Slot answer</source>
        <translation>スロットの回答</translation>
    </message>
    <message>
        <source>p</source>
        <translation>p</translation>
    </message>
    <message>
        <source>Hesitation</source>
        <translation>迷い</translation>
    </message>
    <message>
        <source>Generative answer</source>
        <translation>生成の回答</translation>
    </message>
    <message>
        <source>Agree</source>
        <translation>一致</translation>
    </message>
</context>
<context>
    <name>ui::CompareWindow</name>
    <message>
        <source>Compare — Decision Studio</source>
        <translation>比較 — Decision Studio</translation>
    </message>
    <message>
        <source>Waiting for the first pass…</source>
        <translation>最初のパスを待機中…</translation>
    </message>
    <message>
        <source>Generative JSON</source>
        <translation>生成 JSON</translation>
    </message>
    <message>
        <source>Run &amp;again</source>
        <translation>もう一度実行(&amp;A)</translation>
    </message>
    <message>
        <source>Compare the policy in the editor again (Ctrl+Shift+Return)</source>
        <translation>エディターのポリシーをもう一度比較します（Ctrl+Shift+Return）</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>キャンセル</translation>
    </message>
    <message>
        <source>Export re&amp;port…</source>
        <translation>レポートをエクスポート(&amp;P)…</translation>
    </message>
    <message>
        <source>This comparison as a report: HTML, PDF, CSV or JSON, with a preview (Ctrl+Shift+E)</source>
        <translation>この比較をレポートに: HTML、PDF、CSV、JSON（プレビュー付き、Ctrl+Shift+E）</translation>
    </message>
    <message>
        <source>Export report…</source>
        <translation>レポートをエクスポート…</translation>
    </message>
    <message>
        <source>Passes (slot vs generative)</source>
        <translation>パス数（スロット対生成）</translation>
    </message>
    <message>
        <source>Latency</source>
        <translation>レイテンシ</translation>
    </message>
    <message>
        <source>Generative / slot time</source>
        <translation>生成 / スロットの時間比</translation>
    </message>
    <message>
        <source>Agreement</source>
        <translation>一致</translation>
    </message>
    <message>
        <source>Generative reply</source>
        <translation>生成の応答</translation>
    </message>
    <message>
        <source>Slot readout</source>
        <translation>スロット読み出し</translation>
    </message>
    <message>
        <source>&amp;Raw reply</source>
        <translation>生の応答(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Answers, side by side</source>
        <translation>回答の並列表示(&amp;A)</translation>
    </message>
    <message>
        <source>Compare (Ctrl+Shift+Return) answers the policy in the editor both ways: the slot readout&apos;s cards show here.</source>
        <translation>「比較」（Ctrl+Shift+Return）はエディターのポリシーに両方の方法で回答します。スロット読み出しのカードはここに表示されます。</translation>
    </message>
    <message>
        <source>One seeded forward pass reads every answer&apos;s probabilities.</source>
        <translation>シード付きの 1 回の順伝播で、すべての回答の確率を読み取ります。</translation>
    </message>
    <message>
        <source>The same questions asked for one JSON object, parsed strictly (never repaired).</source>
        <translation>同じ質問を 1 つの JSON オブジェクトとして尋ね、厳密に解析します（修復はしません）。</translation>
    </message>
    <message>
        <source>No backend for the active endpoint.</source>
        <translation>アクティブなエンドポイントのバックエンドがありません。</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; — slot readout vs generative JSON on %2</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; — %2 でのスロット読み出し対生成 JSON</translation>
    </message>
    <message>
        <source>Compare %1 — Decision Studio</source>
        <translation>比較 %1 — Decision Studio</translation>
    </message>
    <message>
        <source>Reading the slots…</source>
        <translation>スロットを読み取り中…</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>キャンセルしました。</translation>
    </message>
    <message numerus="yes">
        <source>%n question(s) read in %1</source>
        <translation>
            <numerusform>%n 問を %1 で読み取り</numerusform>
        </translation>
    </message>
    <message>
        <source>Encode %1 · decode %2 · readout %3 · total %4 — %5 read(s), %6 prompt tokens, %7</source>
        <translation>エンコード %1 · デコード %2 · 読み出し %3 · 合計 %4 — 読み取り %5 回、プロンプト %6 トークン、%7</translation>
    </message>
    <message>
        <source>slot %1 ms · generative …</source>
        <translation>スロット %1 ms · 生成 …</translation>
    </message>
    <message>
        <source>No slot readout.</source>
        <translation>スロット読み出しはありません。</translation>
    </message>
    <message>
        <source>The slot readout failed: %1</source>
        <translation>スロット読み出しに失敗しました: %1</translation>
    </message>
    <message>
        <source>Slot readout: %1</source>
        <translation>スロット読み出し: %1</translation>
    </message>
    <message>
        <source>Pass %1 · %2</source>
        <translation>パス %1 · %2</translation>
    </message>
    <message>
        <source>Generative JSON: %1</source>
        <translation>生成 JSON: %1</translation>
    </message>
    <message>
        <source>… vs %1</source>
        <translation>… 対 %1</translation>
    </message>
    <message numerus="yes">
        <source>%n question(s) · %1 · %2 decoder pass(es)</source>
        <translation>
            <numerusform>%n 問 · %1 · デコーダパス %2 回</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 · %n pass(es) · %2 completion tokens · finish: %3</source>
        <translation>
            <numerusform>%1 · %n パス · 補完トークン %2 · 終了理由: %3</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Done: %n denoising pass(es)</source>
        <translation>
            <numerusform>完了: ノイズ除去パス %n 回</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:%1&apos;&gt;✓ &lt;b&gt;Valid&lt;/b&gt;: one JSON object, every question answered with an allowed value.&lt;/span&gt;</source>
        <translation>&lt;span style=&apos;color:%1&apos;&gt;✓ &lt;b&gt;有効&lt;/b&gt;: 1 つの JSON オブジェクトで、すべての質問に許可された値で回答しています。&lt;/span&gt;</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:%1&apos;&gt;✗ &lt;b&gt;Invalid&lt;/b&gt; (counted wrong, never repaired):&lt;/span&gt;&lt;ul style=&apos;margin:0&apos;&gt;%2&lt;/ul&gt;</source>
        <translation>&lt;span style=&apos;color:%1&apos;&gt;✗ &lt;b&gt;無効&lt;/b&gt;（不正解として数え、修復はしません）:&lt;/span&gt;&lt;ul style=&apos;margin:0&apos;&gt;%2&lt;/ul&gt;</translation>
    </message>
    <message>
        <source>No generation.</source>
        <translation>生成はありません。</translation>
    </message>
    <message>
        <source>The generative side did not answer; the slot side is kept.</source>
        <translation>生成側が応答しませんでした。スロット側の結果は保持されます。</translation>
    </message>
    <message>
        <source>Compared %1 question(s) on %2</source>
        <translation>%2 で %1 問を比較しました</translation>
    </message>
    <message>
        <source>The generative side failed: %1</source>
        <translation>生成側が失敗しました: %1</translation>
    </message>
</context>
<context>
    <name>ui::ComparisonItemsModel</name>
    <message>
        <source>Item</source>
        <translation>項目</translation>
    </message>
    <message>
        <source>Tier</source>
        <translation>ティア</translation>
    </message>
    <message>
        <source>Slot (ms)</source>
        <translation>スロット (ms)</translation>
    </message>
    <message>
        <source>Generative (ms)</source>
        <translation>生成 (ms)</translation>
    </message>
    <message>
        <source>Slot correct</source>
        <translation>スロット正解</translation>
    </message>
    <message>
        <source>Valid JSON</source>
        <translation>有効な JSON</translation>
    </message>
    <message>
        <source>Generative correct</source>
        <translation>生成正解</translation>
    </message>
    <message>
        <source>Agree</source>
        <translation>一致</translation>
    </message>
    <message>
        <source>Passes</source>
        <translation>パス数</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>理由</translation>
    </message>
</context>
<context>
    <name>ui::DataRowsModel</name>
    <message>
        <source>right</source>
        <translation>正解</translation>
    </message>
    <message>
        <source>wrong</source>
        <translation>不正解</translation>
    </message>
    <message>
        <source>row</source>
        <translation>行</translation>
    </message>
</context>
<context>
    <name>ui::DataWindow</name>
    <message>
        <source>Open a CSV or JSONL file, or drop one here.</source>
        <translation>CSV または JSONL ファイルを開くか、ここにドロップしてください。</translation>
    </message>
    <message>
        <source>Open data…</source>
        <translation>データを開く…</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>実行</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>再開</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>キャンセル</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>エクスポート…</translation>
    </message>
    <message>
        <source>Open data</source>
        <translation>データを開く</translation>
    </message>
    <message>
        <source>Data (*.csv *.jsonl *.ndjson)</source>
        <translation>データ (*.csv *.jsonl *.ndjson)</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>エクスポート</translation>
    </message>
    <message>
        <source>Rows or report (*.csv *.jsonl *.html *.pdf)</source>
        <translation>行またはレポート (*.csv *.jsonl *.html *.pdf)</translation>
    </message>
    <message>
        <source>Data and mapping</source>
        <translation>データと対応付け</translation>
    </message>
    <message>
        <source>Rows</source>
        <translation>行</translation>
    </message>
    <message>
        <source>Questions</source>
        <translation>質問</translation>
    </message>
    <message>
        <source>%1 (%2 rows) through %3</source>
        <translation>%1 (%2 行) を %3 で判定</translation>
    </message>
    <message>
        <source>(the template&apos;s default)</source>
        <translation>(テンプレートの既定値)</translation>
    </message>
    <message>
        <source>Resuming…</source>
        <translation>再開中…</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>開始中…</translation>
    </message>
    <message>
        <source>%1 / %2 rows · %3 failed · %4 rows/s · ETA %5</source>
        <translation>%1 / %2 行 · 失敗 %3 · %4 行/秒 · 残り %5</translation>
    </message>
    <message>
        <source>Cancelled: %1 rows kept; Resume continues.</source>
        <translation>キャンセルしました: %1 行を保持。「再開」で続行します。</translation>
    </message>
    <message>
        <source>%1 rows · %2 failed · accuracy %3</source>
        <translation>%1 行 · 失敗 %2 · 正解率 %3</translation>
    </message>
    <message>
        <source>%1 rows · %2 failed</source>
        <translation>%1 行 · 失敗 %2</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: %2 answered, accuracy %3 · confusion: rows expected, columns answered</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;: 回答 %2 件、正解率 %3 · 混同行列: 行は期待値、列は回答</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: %2 answered</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;: 回答 %2 件</translation>
    </message>
    <message>
        <source>All rows</source>
        <translation>すべての行</translation>
    </message>
    <message>
        <source>Wrong</source>
        <translation>不正解</translation>
    </message>
    <message>
        <source>Uncertain (hesitation over 0.5)</source>
        <translation>不確か (迷いが 0.5 超)</translation>
    </message>
    <message>
        <source>%1 = %2</source>
        <translation>%1 = %2</translation>
    </message>
    <message>
        <source>%1: no dataset.json; not a kept dataset run</source>
        <translation>%1: dataset.json がありません。保存されたデータ実行ではありません</translation>
    </message>
    <message>
        <source>The run is not complete; resume it first.</source>
        <translation>実行が完了していません。先に再開してください。</translation>
    </message>
    <message>
        <source>Variable</source>
        <translation>変数</translation>
    </message>
    <message>
        <source>Column</source>
        <translation>列</translation>
    </message>
    <message>
        <source>rows: expected, columns: answered; click a cell for its rows</source>
        <translation>行: 期待値、列: 回答。セルをクリックするとその行を表示</translation>
    </message>
    <message>
        <source>%1 expected %2, answered %3</source>
        <translation>%1 期待 %2、回答 %3</translation>
    </message>
    <message numerus="yes">
        <source>Chosen in a chart: %1 (%n row(s))</source>
        <translation>
            <numerusform>グラフで選択: %1 (%n 行)</numerusform>
        </translation>
    </message>
    <message>
        <source>Calibrate…</source>
        <translation>較正…</translation>
    </message>
    <message>
        <source>Fit the open policy&apos;s temperature from this run&apos;s labelled rows</source>
        <translation>この実行のラベル付き行から、開いているポリシーの温度を当てはめる</translation>
    </message>
</context>
<context>
    <name>ui::EndpointListModel</name>
    <message>
        <source>  (active)</source>
        <translation>  （アクティブ）</translation>
    </message>
</context>
<context>
    <name>ui::EndpointsDialog</name>
    <message>
        <source>Endpoints</source>
        <translation>エンドポイント</translation>
    </message>
    <message>
        <source>Add &amp;local</source>
        <translation>ローカルを追加(&amp;L)</translation>
    </message>
    <message>
        <source>Add &amp;server</source>
        <translation>サーバーを追加(&amp;S)</translation>
    </message>
    <message>
        <source>Re&amp;move</source>
        <translation>削除(&amp;M)</translation>
    </message>
    <message>
        <source>Use this &amp;one</source>
        <translation>これを使用(&amp;O)</translation>
    </message>
    <message>
        <source>Local engine</source>
        <translation>ローカルエンジン</translation>
    </message>
    <message>
        <source>Server: detect from /health</source>
        <translation>サーバー: /health から検出</translation>
    </message>
    <message>
        <source>Server: dgem chat</source>
        <translation>サーバー: dgem チャット</translation>
    </message>
    <message>
        <source>Server: System One</source>
        <translation>サーバー: System One</translation>
    </message>
    <message>
        <source>Server: vLLM structured reads</source>
        <translation>サーバー: vLLM 構造化読み取り</translation>
    </message>
    <message>
        <source>&amp;Name</source>
        <translation>名前(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Kind</source>
        <translation>種類(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>参照(&amp;B)…</translation>
    </message>
    <message>
        <source>Automatic</source>
        <translation>自動</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>CUDA (GPU)</source>
        <translation>CUDA (GPU)</translation>
    </message>
    <message>
        <source>CUDA (no GPU found)</source>
        <translation>CUDA（GPU が見つかりません）</translation>
    </message>
    <message>
        <source>Model &amp;folder</source>
        <translation>モデルフォルダー(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Device</source>
        <translation>デバイス(&amp;D)</translation>
    </message>
    <message>
        <source>the server&apos;s default</source>
        <translation>サーバーの既定</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>None</source>
        <translation>なし</translation>
    </message>
    <message>
        <source>Bearer token (keychain)</source>
        <translation>Bearer トークン（キーチェーン）</translation>
    </message>
    <message>
        <source>gcloud identity token (Cloud Run)</source>
        <translation>gcloud ID トークン（Cloud Run）</translation>
    </message>
    <message>
        <source>gcloud access token (Vertex)</source>
        <translation>gcloud アクセストークン（Vertex）</translation>
    </message>
    <message>
        <source>paste to store it in the keychain</source>
        <translation>貼り付けるとキーチェーンに保存します</translation>
    </message>
    <message>
        <source>Save &amp;token</source>
        <translation>トークンを保存(&amp;T)</translation>
    </message>
    <message>
        <source>Send a server &amp;key (X-DGem-Key)</source>
        <translation>サーバーキーを送信(&amp;K)（X-DGem-Key）</translation>
    </message>
    <message>
        <source>Save &amp;key</source>
        <translation>キーを保存(&amp;K)</translation>
    </message>
    <message>
        <source>folder with tokenizer.json (vLLM structured reads)</source>
        <translation>tokenizer.json のあるフォルダー（vLLM 構造化読み取り）</translation>
    </message>
    <message>
        <source>&amp;URL</source>
        <translation>URL(&amp;U)</translation>
    </message>
    <message>
        <source>M&amp;odel</source>
        <translation>モデル(&amp;O)</translation>
    </message>
    <message>
        <source>T&amp;imeout</source>
        <translation>タイムアウト(&amp;I)</translation>
    </message>
    <message>
        <source>&amp;Auth</source>
        <translation>認証(&amp;A)</translation>
    </message>
    <message>
        <source>Token</source>
        <translation>トークン</translation>
    </message>
    <message>
        <source>Server key</source>
        <translation>サーバーキー</translation>
    </message>
    <message>
        <source>Tokeni&amp;zer</source>
        <translation>トークナイザー(&amp;Z)</translation>
    </message>
    <message>
        <source>&amp;Test connection</source>
        <translation>接続をテスト(&amp;T)</translation>
    </message>
    <message>
        <source>Model folder</source>
        <translation>モデルフォルダー</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>サーバー</translation>
    </message>
    <message>
        <source>⚠ Set the URL first: secrets are stored per URL.</source>
        <translation>⚠ 先に URL を設定してください。秘密情報は URL ごとに保存されます。</translation>
    </message>
    <message>
        <source>⚠ Keychain: %1</source>
        <translation>⚠ キーチェーン: %1</translation>
    </message>
    <message>
        <source>Removed from the keychain.</source>
        <translation>キーチェーンから削除しました。</translation>
    </message>
    <message>
        <source>Saved in the system keychain (never in settings).</source>
        <translation>システムのキーチェーンに保存しました（設定ファイルには保存しません）。</translation>
    </message>
    <message>
        <source>Connecting…</source>
        <translation>接続中…</translation>
    </message>
    <message>
        <source>Loading the model…</source>
        <translation>モデルを読み込み中…</translation>
    </message>
    <message>
        <source>✔ Ready</source>
        <translation>✔ 準備完了</translation>
    </message>
    <message>
        <source>… Reachable, not ready yet</source>
        <translation>… 到達可能、まだ準備中</translation>
    </message>
    <message>
        <source>protocol %1</source>
        <translation>プロトコル %1</translation>
    </message>
    <message>
        <source>model %1</source>
        <translation>モデル %1</translation>
    </message>
    <message>
        <source>One URL, or several separated by commas: decisions go to the first server that is up and fail over to the next; bench workers spread over all of them.</source>
        <translation>1 つの URL、またはカンマ区切りの複数の URL: 判定は稼働中の最初のサーバーに送られ、障害時は次のサーバーに切り替わります。ベンチのワーカーはすべてに分散します。</translation>
    </message>
    <message>
        <source>PEM file of a private CA (besides the system store)</source>
        <translation>プライベート CA の PEM ファイル（システムのストアに追加）</translation>
    </message>
    <message>
        <source>PEM certificate for mutual TLS</source>
        <translation>相互 TLS 用の PEM 証明書</translation>
    </message>
    <message>
        <source>its private key (PEM, unencrypted)</source>
        <translation>その秘密鍵（PEM、暗号化なし）</translation>
    </message>
    <message>
        <source>http://user@host:port; empty: HTTPS_PROXY/NO_PROXY; direct: none</source>
        <translation>http://user@host:port。空: HTTPS_PROXY/NO_PROXY、direct: なし</translation>
    </message>
    <message>
        <source>the proxy user&apos;s password, kept in the keychain</source>
        <translation>プロキシユーザーのパスワード（キーチェーンに保存）</translation>
    </message>
    <message>
        <source>Save pass&amp;word</source>
        <translation>パスワードを保存(&amp;W)</translation>
    </message>
    <message>
        <source>CA &amp;file</source>
        <translation>CA ファイル(&amp;F)</translation>
    </message>
    <message>
        <source>Client &amp;certificate</source>
        <translation>クライアント証明書(&amp;C)</translation>
    </message>
    <message>
        <source>Client &amp;key</source>
        <translation>クライアント鍵(&amp;Y)</translation>
    </message>
    <message>
        <source>&amp;Proxy</source>
        <translation>プロキシ(&amp;P)</translation>
    </message>
    <message>
        <source>Proxy password</source>
        <translation>プロキシのパスワード</translation>
    </message>
    <message>
        <source>⚠ Set a proxy with a user first (http://user@host:port).</source>
        <translation>⚠ 先にユーザー付きのプロキシを設定してください（http://user@host:port）。</translation>
    </message>
</context>
<context>
    <name>ui::ExportReportDialog</name>
    <message>
        <source>Export report — %1</source>
        <translation>レポートをエクスポート — %1</translation>
    </message>
    <message>
        <source>One self-contained file: inline styles and charts, printable</source>
        <translation>単一の自己完結型ファイル: スタイルとグラフを埋め込み、印刷可能</translation>
    </message>
    <message>
        <source>Pages with vector charts, page numbers and repeated table headers</source>
        <translation>ベクターグラフ、ページ番号、繰り返し表示される表見出し付きのページ</translation>
    </message>
    <message>
        <source>One row per item and question (UTF-8, RFC 4180)</source>
        <translation>項目と質問ごとに 1 行（UTF-8、RFC 4180）</translation>
    </message>
    <message>
        <source>The full data, with report_version</source>
        <translation>report_version 付きの全データ</translation>
    </message>
    <message>
        <source>&amp;Format:</source>
        <translation>形式(&amp;F):</translation>
    </message>
    <message>
        <source>A4</source>
        <translation>A4</translation>
    </message>
    <message>
        <source>Letter</source>
        <translation>レター</translation>
    </message>
    <message>
        <source>&amp;Page size:</source>
        <translation>用紙サイズ(&amp;P):</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>エクスポート(&amp;E)…</translation>
    </message>
    <message>
        <source>… (the preview shows the first %1 of %2 characters; the file has all of them)</source>
        <translation>…（プレビューは %2 文字中の最初の %1 文字を表示しています。ファイルにはすべて含まれます）</translation>
    </message>
    <message numerus="yes">
        <source>%n line(s)</source>
        <translation>
            <numerusform>%n 行</numerusform>
        </translation>
    </message>
    <message>
        <source>Page %1 of %2</source>
        <translation>%1 / %2 ページ</translation>
    </message>
    <message numerus="yes">
        <source>%n page(s)</source>
        <translation>
            <numerusform>%n ページ</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n page(s) when printed</source>
        <translation>
            <numerusform>印刷時 %n ページ</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>no file name given; accepted formats: %1</source>
        <translation>ファイル名が指定されていません。使用できる形式: %1</translation>
    </message>
    <message>
        <source>Export report</source>
        <translation>レポートをエクスポート</translation>
    </message>
</context>
<context>
    <name>ui::Format</name>
    <message>
        <source>%1%</source>
        <extracomment>A percentage; %1 is the number with its decimals (&quot;91.8&quot;). German puts a space before the sign.</extracomment>
        <translation>%1%</translation>
    </message>
    <message>
        <source>Clear</source>
        <extracomment>Hesitation class of a result: the model is sure.</extracomment>
        <translation>明確</translation>
    </message>
    <message>
        <source>Somewhat unsure</source>
        <translation>やや不確か</translation>
    </message>
    <message>
        <source>Very unsure</source>
        <translation>かなり不確か</translation>
    </message>
</context>
<context>
    <name>ui::GenerationStepsModel</name>
    <message>
        <source>pass %1 · %2</source>
        <translation>パス %1 · %2</translation>
    </message>
</context>
<context>
    <name>ui::HistoryModel</name>
    <message>
        <source>%1 on %2, total %3</source>
        <translation>%2 で %1、合計 %3</translation>
    </message>
</context>
<context>
    <name>ui::ImagesModel</name>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>%1
%2, %3×%4 pixels, %5 KiB</source>
        <translation>%1
%2、%3×%4 ピクセル、%5 KiB</translation>
    </message>
    <message>
        <source>image %1: %2</source>
        <translation>画像 %1: %2</translation>
    </message>
    <message>
        <source>%1: a decision takes at most %2 images</source>
        <translation>%1: 1 回の決定で使える画像は最大 %2 枚です</translation>
    </message>
    <message>
        <source>%1: the pasted picture could not be encoded</source>
        <translation>%1: 貼り付けた画像をエンコードできませんでした</translation>
    </message>
</context>
<context>
    <name>ui::ImagesPanel</name>
    <message>
        <source>&amp;Images</source>
        <translation>画像(&amp;I)</translation>
    </message>
    <message>
        <source>Images</source>
        <translation>画像</translation>
    </message>
    <message>
        <source>Drop image files here, paste one (Ctrl+V) or use Add…; PNG, JPEG or WebP. They are sent before the state, in this order.</source>
        <translation>画像ファイルをここにドロップするか、貼り付け (Ctrl+V) または「追加…」を使います。PNG、JPEG、WebP に対応。状態の前に、この順で送信されます。</translation>
    </message>
    <message>
        <source>Add image…</source>
        <translation>画像を追加…</translation>
    </message>
    <message>
        <source>Remove image</source>
        <translation>画像を削除</translation>
    </message>
    <message>
        <source>Add images</source>
        <translation>画像を追加</translation>
    </message>
    <message>
        <source>Images (*.png *.jpg *.jpeg *.webp)</source>
        <translation>画像 (*.png *.jpg *.jpeg *.webp)</translation>
    </message>
    <message>
        <source>pasted image</source>
        <translation>貼り付けた画像</translation>
    </message>
    <message>
        <source>Nothing to add: drop or paste image files, a picture or a URL</source>
        <translation>追加するものがありません。画像ファイル、画像、または URL をドロップまたは貼り付けてください</translation>
    </message>
</context>
<context>
    <name>ui::LinesDelegate</name>
    <message>
        <source>One alternative per line: name: description</source>
        <translation>1 行に 1 つの選択肢: 名前: 説明</translation>
    </message>
</context>
<context>
    <name>ui::MainWindow</name>
    <message>
        <source>Decision Studio</source>
        <translation>Decision Studio</translation>
    </message>
    <message>
        <source>Reloaded %1: it changed on disk.</source>
        <translation>%1 を再読み込みしました: ディスク上で変更されました。</translation>
    </message>
    <message>
        <source>%1 changed on disk, and you have unsaved edits.</source>
        <translation>%1 がディスク上で変更されましたが、未保存の編集があります。</translation>
    </message>
    <message>
        <source>&amp;Policies</source>
        <translation>ポリシー(&amp;P)</translation>
    </message>
    <message>
        <source>Reload from disk</source>
        <translation>ディスクから再読み込み</translation>
    </message>
    <message>
        <source>Keep my edits</source>
        <translation>編集内容を保持</translation>
    </message>
    <message>
        <source>&amp;Variables</source>
        <translation>変数(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Results</source>
        <translation>結果(&amp;R)</translation>
    </message>
    <message>
        <source>Ca&amp;nvas</source>
        <translation>キャンバス(&amp;N)</translation>
    </message>
    <message>
        <source>The active endpoint (Ctrl+E to change)</source>
        <translation>アクティブなエンドポイント（Ctrl+E で変更）</translation>
    </message>
    <message>
        <source>&amp;Policy</source>
        <translation>ポリシー(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;New…</source>
        <translation>新規(&amp;N)…</translation>
    </message>
    <message>
        <source>New policy</source>
        <translation>新しいポリシー</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>名前:</translation>
    </message>
    <message>
        <source>&amp;Duplicate…</source>
        <translation>複製(&amp;D)…</translation>
    </message>
    <message>
        <source>Duplicate policy</source>
        <translation>ポリシーを複製</translation>
    </message>
    <message>
        <source>Name of the copy:</source>
        <translation>コピーの名前:</translation>
    </message>
    <message>
        <source>&amp;Rename…</source>
        <translation>名前を変更(&amp;R)…</translation>
    </message>
    <message>
        <source>Rename policy</source>
        <translation>ポリシーの名前を変更</translation>
    </message>
    <message>
        <source>New name:</source>
        <translation>新しい名前:</translation>
    </message>
    <message>
        <source>De&amp;lete</source>
        <translation>削除(&amp;L)</translation>
    </message>
    <message>
        <source>Delete policy</source>
        <translation>ポリシーを削除</translation>
    </message>
    <message>
        <source>Delete %1 from your policy folder?</source>
        <translation>ポリシーフォルダーから %1 を削除しますか？</translation>
    </message>
    <message>
        <source>&amp;Import…</source>
        <translation>インポート(&amp;I)…</translation>
    </message>
    <message>
        <source>Import policy</source>
        <translation>ポリシーをインポート</translation>
    </message>
    <message>
        <source>Policy templates (*.json.tmpl)</source>
        <translation>ポリシーテンプレート (*.json.tmpl)</translation>
    </message>
    <message>
        <source>E&amp;xport…</source>
        <translation>エクスポート(&amp;X)…</translation>
    </message>
    <message>
        <source>Export policy</source>
        <translation>ポリシーをエクスポート</translation>
    </message>
    <message>
        <source>Export re&amp;port…</source>
        <translation>レポートをエクスポート(&amp;P)…</translation>
    </message>
    <message>
        <source>The latest decision as a report to hand on: HTML, PDF, CSV or JSON, with a preview</source>
        <translation>最新の決定を共有用レポートに: HTML、PDF、CSV、JSON（プレビュー付き）</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>終了(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>編集(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>元に戻す(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>やり直し(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>実行(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Run decision</source>
        <translation>決定を実行(&amp;R)</translation>
    </message>
    <message>
        <source>Compare slot vs &amp;generative</source>
        <translation>スロットと生成を比較(&amp;G)</translation>
    </message>
    <message>
        <source>Answer the policy both ways on the active endpoint: the slot readout (one pass) and generative JSON, side by side</source>
        <translation>アクティブなエンドポイントでポリシーに両方の方法で回答し、並べて表示します: スロット読み出し（1 パス）と生成 JSON</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>キャンセル(&amp;C)</translation>
    </message>
    <message>
        <source>Copy results as &amp;JSON</source>
        <translation>結果を JSON でコピー(&amp;J)</translation>
    </message>
    <message>
        <source>&amp;Endpoints…</source>
        <translation>エンドポイント(&amp;E)…</translation>
    </message>
    <message>
        <source>&amp;Bench…</source>
        <translation>ベンチ(&amp;B)…</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>表示(&amp;V)</translation>
    </message>
    <message>
        <source>Policies</source>
        <translation>ポリシー</translation>
    </message>
    <message>
        <source>Form</source>
        <translation>フォーム</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>ソース</translation>
    </message>
    <message>
        <source>Variables</source>
        <translation>変数</translation>
    </message>
    <message>
        <source>Results</source>
        <translation>結果</translation>
    </message>
    <message>
        <source>Canvas</source>
        <translation>キャンバス</translation>
    </message>
    <message>
        <source>Main</source>
        <translation>メイン</translation>
    </message>
    <message>
        <source>No endpoint</source>
        <translation>エンドポイントなし</translation>
    </message>
    <message>
        <source>%1: not a JSON object of variables; starting with none</source>
        <translation>%1: 変数の JSON オブジェクトではありません。変数なしで開始します</translation>
    </message>
    <message>
        <source>Save policy</source>
        <translation>ポリシーを保存</translation>
    </message>
    <message>
        <source>Save this policy as:</source>
        <translation>このポリシーの保存名:</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Save a copy</source>
        <translation>コピーを保存</translation>
    </message>
    <message>
        <source>Shipped policies are read-only. Save your edits as:</source>
        <translation>同梱のポリシーは読み取り専用です。編集内容の保存名:</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>%1 を保存しました</translation>
    </message>
    <message>
        <source>Unsaved edits</source>
        <translation>未保存の編集</translation>
    </message>
    <message>
        <source>Save your edits to %1?</source>
        <translation>%1 への編集を保存しますか？</translation>
    </message>
    <message>
        <source>%1%2 — Decision Studio</source>
        <translation>%1%2 — Decision Studio</translation>
    </message>
    <message>
        <source>The policy does not render: %1</source>
        <translation>ポリシーをレンダリングできません: %1</translation>
    </message>
    <message>
        <source>No endpoint: add one in Endpoints (Ctrl+E).</source>
        <translation>エンドポイントがありません。「エンドポイント」で追加してください（Ctrl+E）。</translation>
    </message>
    <message>
        <source>Connecting</source>
        <translation>接続中</translation>
    </message>
    <message>
        <source>Starting</source>
        <translation>開始中</translation>
    </message>
    <message>
        <source>No backend for the active endpoint.</source>
        <translation>アクティブなエンドポイントのバックエンドがありません。</translation>
    </message>
    <message>
        <source>No result to export yet: run the policy first (Ctrl+Return).</source>
        <translation>エクスポートする結果がまだありません。先にポリシーを実行してください（Ctrl+Return）。</translation>
    </message>
    <message>
        <source>Report written to %1</source>
        <translation>レポートを %1 に書き出しました</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>キャンセルしました。</translation>
    </message>
    <message>
        <source>Model loading progress</source>
        <translation>モデルの読み込みの進行状況</translation>
    </message>
    <message>
        <source>Cancel loading</source>
        <translation>読み込みをキャンセル</translation>
    </message>
    <message>
        <source>Waiting for the model: %1</source>
        <translation>モデルを待機中: %1</translation>
    </message>
    <message>
        <source>The run starts as soon as the model is loaded (Esc cancels)</source>
        <translation>モデルの読み込みが終わるとすぐに実行を開始します（Esc でキャンセル）</translation>
    </message>
    <message>
        <source>The model is loading (%1); a run now starts as soon as it is ready</source>
        <translation>モデルを読み込み中です（%1）。今実行すると準備ができ次第開始します</translation>
    </message>
    <message>
        <source>Read every question in one pass (Ctrl+Return)</source>
        <translation>すべての質問を 1 パスで読み取ります（Ctrl+Return）</translation>
    </message>
    <message>
        <source>Loading the model</source>
        <translation>モデルを読み込み中</translation>
    </message>
    <message>
        <source>reading the weights</source>
        <translation>重みを読み込み中</translation>
    </message>
    <message>
        <source>binding the weights</source>
        <translation>重みをバインド中</translation>
    </message>
    <message>
        <source>warming up</source>
        <translation>ウォームアップ中</translation>
    </message>
    <message>
        <source>connecting</source>
        <translation>接続中</translation>
    </message>
    <message>
        <source>%1 %2%</source>
        <translation>%1 %2%</translation>
    </message>
    <message>
        <source>Loading the model: %1</source>
        <translation>モデルを読み込み中: %1</translation>
    </message>
    <message>
        <source>Connecting…</source>
        <translation>接続中…</translation>
    </message>
    <message>
        <source>Model loading cancelled; the next run loads it.</source>
        <translation>モデルの読み込みをキャンセルしました。次回の実行時に読み込みます。</translation>
    </message>
    <message>
        <source>The model did not load: %1</source>
        <translation>モデルを読み込めませんでした: %1</translation>
    </message>
    <message>
        <source>Ready: %1</source>
        <translation>準備完了: %1</translation>
    </message>
    <message>
        <source>Data — Decision Studio</source>
        <translation>データ — Decision Studio</translation>
    </message>
    <message>
        <source>&amp;Data…</source>
        <translation>データ(&amp;D)…</translation>
    </message>
    <message>
        <source>Models — Decision Studio</source>
        <translation>モデル — Decision Studio</translation>
    </message>
    <message>
        <source>&amp;Models…</source>
        <translation>モデル(&amp;M)…</translation>
    </message>
    <message>
        <source>the bench run %1</source>
        <translation>ベンチ実行 %1</translation>
    </message>
    <message>
        <source>the dataset run %1</source>
        <translation>データセット実行 %1</translation>
    </message>
    <message>
        <source>Calibrate: %1</source>
        <translation>較正：%1</translation>
    </message>
    <message>
        <source>Calibrate: %1 has no labelled questions (an expected answer the run answered)</source>
        <translation>較正：%1 にはラベル付き質問（実行が答えた、期待される答えのある質問）がありません</translation>
    </message>
    <message>
        <source>The fitted temperature was written into %1 (Undo takes it back)</source>
        <translation>当てはめた温度を %1 に書き込みました（元に戻すで取り消せます）</translation>
    </message>
    <message>
        <source>cascade_mode on_miss escalates the questions a labelled run missed, and a single decision has no expected answers: use entropy here, on_miss in a Bench or Data run.</source>
        <translation>cascade_mode on_miss はラベル付きの実行で外れた質問をエスカレーションしますが、単一の判定には期待される答えがありません。ここでは entropy を使い、on_miss はベンチまたはデータの実行で使ってください。</translation>
    </message>
</context>
<context>
    <name>ui::ModelsView</name>
    <message>
        <source>%1 GB</source>
        <translation>%1 GB</translation>
    </message>
    <message>
        <source>complete</source>
        <translation>完全</translation>
    </message>
    <message>
        <source>incomplete</source>
        <translation>不完全</translation>
    </message>
    <message>
        <source>not DiffusionGemma</source>
        <translation>DiffusionGemma ではない</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>モデル</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>ファイル</translation>
    </message>
    <message>
        <source>Format</source>
        <translation>形式</translation>
    </message>
    <message>
        <source>On disk</source>
        <translation>ディスク上</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>メモリ</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>フォルダー</translation>
    </message>
    <message>
        <source>&amp;Add folder…</source>
        <translation>フォルダーを追加(&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;Remove folder</source>
        <translation>フォルダーを削除(&amp;R)</translation>
    </message>
    <message>
        <source>Re&amp;fresh</source>
        <translation>再読み込み(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Use for profile</source>
        <translation>プロファイルに使用(&amp;U)</translation>
    </message>
    <message>
        <source>Add a models folder</source>
        <translation>モデルフォルダーを追加</translation>
    </message>
    <message>
        <source>This machine: %1 of host memory available</source>
        <translation>このマシン: ホストメモリ %1 利用可能</translation>
    </message>
    <message>
        <source> · %1: %2 free</source>
        <translation> · %1: %2 空き</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>不明</translation>
    </message>
    <message>
        <source>No models found. Add a folder that holds one.</source>
        <translation>モデルが見つかりません。モデルを含むフォルダーを追加してください。</translation>
    </message>
    <message>
        <source>Choose a model to see its details.</source>
        <translation>モデルを選ぶと詳細が表示されます。</translation>
    </message>
    <message>
        <source>Memory plan: %1</source>
        <translation>メモリ計画: %1</translation>
    </message>
    <message>
        <source>On a GPU: %1</source>
        <translation>GPU 上: %1</translation>
    </message>
    <message>
        <source>Cannot be used:</source>
        <translation>使用できません:</translation>
    </message>
</context>
<context>
    <name>ui::PassStrip</name>
    <message numerus="yes">
        <source>%n pass(es)</source>
        <translation>
            <numerusform>%n パス</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ui::PolicyDocument</name>
    <message>
        <source>Edit source</source>
        <translation>ソースを編集</translation>
    </message>
    <message>
        <source>Edit instructions</source>
        <translation>指示を編集</translation>
    </message>
    <message>
        <source>the rendered policy is not valid JSON: %1</source>
        <translation>レンダリングしたポリシーは有効な JSON ではありません: %1</translation>
    </message>
    <message>
        <source>the rendered policy must be an object {&quot;schema&quot;: {...}, &quot;state&quot;: {...}}</source>
        <translation>レンダリングしたポリシーはオブジェクト {&quot;schema&quot;: {...}, &quot;state&quot;: {...}} でなければなりません</translation>
    </message>
</context>
<context>
    <name>ui::PolicyForm</name>
    <message>
        <source>&amp;Instructions</source>
        <translation>指示(&amp;I)</translation>
    </message>
    <message>
        <source>&amp;Questions</source>
        <translation>質問(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Add</source>
        <translation>追加(&amp;A)</translation>
    </message>
    <message>
        <source>Yes/no question</source>
        <translation>はい/いいえの質問</translation>
    </message>
    <message>
        <source>Choice question</source>
        <translation>選択式の質問</translation>
    </message>
    <message>
        <source>Score question</source>
        <translation>スコアの質問</translation>
    </message>
    <message>
        <source>&amp;Remove</source>
        <translation>削除(&amp;R)</translation>
    </message>
    <message>
        <source>Move u&amp;p</source>
        <translation>上へ移動(&amp;P)</translation>
    </message>
    <message>
        <source>Move the question up (Alt+Up)</source>
        <translation>質問を上へ移動します（Alt+Up）</translation>
    </message>
    <message>
        <source>Move do&amp;wn</source>
        <translation>下へ移動(&amp;W)</translation>
    </message>
    <message>
        <source>Move the question down (Alt+Down)</source>
        <translation>質問を下へ移動します（Alt+Down）</translation>
    </message>
    <message>
        <source>The source has an error; fix it there to edit the form. %1</source>
        <translation>ソースにエラーがあります。フォームを編集するにはソースで修正してください。%1</translation>
    </message>
    <message>
        <source>The questions are produced by template actions; edit them in the source.</source>
        <translation>質問はテンプレートのアクションで生成されています。ソースで編集してください。</translation>
    </message>
    <message>
        <source>&amp;Import options…</source>
        <translation>選択肢をインポート(&amp;I)…</translation>
    </message>
    <message>
        <source>Replace the choice question&apos;s options with a CSV file&apos;s rows: the name in the first column, a description in the second (up to 255 options; more than 26 are read as a bracket tournament)</source>
        <translation>選択式の質問の選択肢を CSV ファイルの行で置き換えます: 1 列目に名前、2 列目に説明（最大 255 個。26 個を超えるとトーナメント方式で読み取ります）</translation>
    </message>
    <message>
        <source>Import options</source>
        <translation>選択肢のインポート</translation>
    </message>
    <message>
        <source>CSV files (*.csv *.tsv *.txt);;All files (*)</source>
        <translation>CSV ファイル (*.csv *.tsv *.txt);;すべてのファイル (*)</translation>
    </message>
    <message>
        <source>Select a choice question to import options into.</source>
        <translation>選択肢をインポートする選択式の質問を選んでください。</translation>
    </message>
    <message>
        <source>&amp;Temperature</source>
        <translation>温度(&amp;T)</translation>
    </message>
    <message>
        <source>1 (none)</source>
        <translation>1 (なし)</translation>
    </message>
    <message>
        <source>Stage-2 &amp;cascade</source>
        <translation>第 2 段カスケード(&amp;C)</translation>
    </message>
    <message>
        <source>off</source>
        <translation>オフ</translation>
    </message>
    <message>
        <source>entropy</source>
        <translation>エントロピー</translation>
    </message>
    <message>
        <source>on miss</source>
        <translation>誤答時</translation>
    </message>
    <message>
        <source> nats</source>
        <translation> nats</translation>
    </message>
    <message>
        <source>Questions whose entropy reaches this go to the stage-2 judge (ln 2 = 0.693 is a coin flip).</source>
        <translation>エントロピーがこの値に達した質問は第 2 段の判定者に送られます (ln 2 = 0.693 はコイン投げ相当)。</translation>
    </message>
    <message>
        <source>Temperature: %1 is neither a number nor a JSON object</source>
        <translation>温度: %1 は数値でも JSON オブジェクトでもありません</translation>
    </message>
    <message>
        <source>Edit temperature</source>
        <translation>温度を編集</translation>
    </message>
    <message>
        <source>Edit cascade mode</source>
        <translation>カスケードモードを編集</translation>
    </message>
    <message>
        <source>Edit cascade threshold</source>
        <translation>カスケードしきい値を編集</translation>
    </message>
    <message>
        <source>Divides every read&apos;s label log-probabilities before the softmax: above 1 flattens overconfident answers. One number, or one per question type as {&quot;noul&quot;: T, &quot;choice&quot;: T, &quot;score&quot;: T}, with one per question as &quot;questions&quot;: {&quot;id&quot;: T}. Fit it with Calibrate… in the Bench or Data view, or dgem calibrate.</source>
        <translation>ソフトマックスの前に各読み取りのラベル対数確率を割ります：1 より大きいと自信過剰な答えを平らにします。1 つの数値、または質問タイプごとに {&quot;noul&quot;: T, &quot;choice&quot;: T, &quot;score&quot;: T}、質問ごとには &quot;questions&quot;: {&quot;id&quot;: T}。ベンチまたはデータビューの「較正…」か dgem calibrate で当てはめます。</translation>
    </message>
    <message>
        <source>temperature.questions names the unknown question &quot;%1&quot;; the policy&apos;s questions: %2</source>
        <translation>temperature.questions が不明な質問「%1」を指定しています。ポリシーの質問：%2</translation>
    </message>
</context>
<context>
    <name>ui::PolicyLibrary</name>
    <message>
        <source>%1 (shipped, read-only: duplicate it to edit)</source>
        <translation>%1（同梱、読み取り専用: 編集するには複製してください）</translation>
    </message>
    <message>
        <source>cannot read: %1</source>
        <translation>読み込めません: %1</translation>
    </message>
    <message>
        <source>shipped policies are read-only; duplicate it</source>
        <translation>同梱のポリシーは読み取り専用です。複製してください</translation>
    </message>
    <message>
        <source>cannot write: %1</source>
        <translation>書き込めません: %1</translation>
    </message>
    <message>
        <source>a policy name uses letters, digits, _ - . and spaces</source>
        <translation>ポリシー名に使えるのは英字、数字、_ - . と空白です</translation>
    </message>
    <message>
        <source>already exists</source>
        <translation>すでに存在します</translation>
    </message>
    <message>
        <source>duplicate: no policy selected</source>
        <translation>複製: ポリシーが選択されていません</translation>
    </message>
    <message>
        <source>cannot copy %1</source>
        <translation>%1 をコピーできません</translation>
    </message>
    <message>
        <source>rename: no policy selected</source>
        <translation>名前の変更: ポリシーが選択されていません</translation>
    </message>
    <message>
        <source>shipped policies cannot be renamed</source>
        <translation>同梱のポリシーは名前を変更できません</translation>
    </message>
    <message>
        <source>cannot rename</source>
        <translation>名前を変更できません</translation>
    </message>
    <message>
        <source>delete: no policy selected</source>
        <translation>削除: ポリシーが選択されていません</translation>
    </message>
    <message>
        <source>shipped policies cannot be deleted</source>
        <translation>同梱のポリシーは削除できません</translation>
    </message>
    <message>
        <source>cannot delete</source>
        <translation>削除できません</translation>
    </message>
    <message>
        <source>a policy file ends in .json.tmpl</source>
        <translation>ポリシーファイルの拡張子は .json.tmpl です</translation>
    </message>
    <message>
        <source>cannot read</source>
        <translation>読み込めません</translation>
    </message>
    <message>
        <source>export: no policy selected</source>
        <translation>エクスポート: ポリシーが選択されていません</translation>
    </message>
    <message>
        <source>cannot write</source>
        <translation>書き込めません</translation>
    </message>
</context>
<context>
    <name>ui::QuestionTableModel</name>
    <message>
        <source>yes/no</source>
        <translation>はい/いいえ</translation>
    </message>
    <message>
        <source>choice</source>
        <translation>選択</translation>
    </message>
    <message>
        <source>score</source>
        <translation>スコア</translation>
    </message>
    <message>
        <source>Read this question alone</source>
        <translation>この質問を単独で読み取る</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>種類</translation>
    </message>
    <message>
        <source>Instructions</source>
        <translation>指示</translation>
    </message>
    <message>
        <source>Alone</source>
        <translation>単独</translation>
    </message>
    <message>
        <source>Set “%1” alone</source>
        <translation>「%1」を単独に設定</translation>
    </message>
    <message>
        <source>Rename question “%1”</source>
        <translation>質問「%1」の名前を変更</translation>
    </message>
    <message>
        <source>Change type of “%1”</source>
        <translation>「%1」の種類を変更</translation>
    </message>
    <message>
        <source>Edit instructions of “%1”</source>
        <translation>「%1」の指示を編集</translation>
    </message>
    <message>
        <source>Edit alternatives of “%1”</source>
        <translation>「%1」の選択肢を編集</translation>
    </message>
    <message>
        <source>Add question “%1”</source>
        <translation>質問「%1」を追加</translation>
    </message>
    <message>
        <source>Remove question “%1”</source>
        <translation>質問「%1」を削除</translation>
    </message>
    <message>
        <source>Move question “%1”</source>
        <translation>質問「%1」を移動</translation>
    </message>
    <message>
        <source>A choice&apos;s options, a score&apos;s levels, a yes/no question&apos;s criteria</source>
        <translation>選択式の選択肢、スコアのレベル、はい/いいえの質問の基準</translation>
    </message>
    <message>
        <source>Options</source>
        <translation>選択肢</translation>
    </message>
    <message numerus="yes">
        <source>Import %n option(s) into “%1”</source>
        <translation>
            <numerusform>%n 個の選択肢を「%1」にインポート</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ui::ResultCard</name>
    <message>
        <source>→ %1</source>
        <translation>→ %1</translation>
    </message>
    <message>
        <source>→ skipped</source>
        <translation>→ スキップ</translation>
    </message>
    <message>
        <source>confidence %1</source>
        <translation>信頼度 %1</translation>
    </message>
    <message>
        <source>entropy %1 nats</source>
        <translation>エントロピー %1 nats</translation>
    </message>
    <message>
        <source>hesitation %1</source>
        <translation>迷い %1</translation>
    </message>
    <message>
        <source>±%1 (stderr)</source>
        <translation>±%1（標準誤差）</translation>
    </message>
    <message>
        <source>Draws</source>
        <translation>ドロー</translation>
    </message>
    <message numerus="yes">
        <source>agreement %1 of %n draw(s)</source>
        <translation>
            <numerusform>%n ドロー中 %1 が一致</numerusform>
        </translation>
    </message>
    <message>
        <source>%1, %2 percent, plus or minus %3</source>
        <translation>%1、%2 パーセント、プラスマイナス %3</translation>
    </message>
    <message>
        <source>%1, %2 percent</source>
        <translation>%1、%2 パーセント</translation>
    </message>
    <message>
        <source>%1: skipped, %2</source>
        <translation>%1: スキップ、%2</translation>
    </message>
    <message>
        <source>%1: %2, %3 percent, %4</source>
        <translation>%1: %2、%3 パーセント、%4</translation>
    </message>
    <message numerus="yes">
        <source>the noise draws agree %1 percent of %n draw(s)</source>
        <translation>
            <numerusform>ノイズのドロー %n 回のうち %1 パーセントが一致</numerusform>
        </translation>
    </message>
    <message>
        <source>Draw %1: %2</source>
        <translation>ドロー %1: %2</translation>
    </message>
    <message>
        <source>%1 %2: %3</source>
        <translation>%1 %2: %3</translation>
    </message>
    <message>
        <source>%1 (label %2): mean %3</source>
        <translation>%1（ラベル %2）: 平均 %3</translation>
    </message>
    <message numerus="yes">
        <source>and %n more…</source>
        <translation>
            <numerusform>ほか %n 件…</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ui::ResultsModel</name>
    <message>
        <source>%1: skipped</source>
        <translation>%1: スキップ</translation>
    </message>
    <message>
        <source>stage 1 said %1 (%2)</source>
        <translation>ステージ1の答えは %1 (%2)</translation>
    </message>
    <message>
        <source>Escalated (entropy %1 nats)</source>
        <translation>エスカレーション済み (エントロピー %1 nats)</translation>
    </message>
    <message>
        <source>%1: stage 2 answered %2 in %3; %4</source>
        <translation>%1: ステージ2が %3 で %2 と回答; %4</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
</context>
<context>
    <name>ui::ResultsView</name>
    <message>
        <source>&amp;Copy as JSON</source>
        <translation>JSON としてコピー(&amp;C)</translation>
    </message>
    <message>
        <source>Run the policy (Ctrl+Return) to see one card per question.</source>
        <translation>ポリシーを実行すると（Ctrl+Return）、質問ごとにカードが表示されます。</translation>
    </message>
    <message>
        <source>Thought</source>
        <translation>思考</translation>
    </message>
    <message>
        <source>Show or hide the last runs (Alt+H)</source>
        <translation>最近の実行の表示/非表示（Alt+H）</translation>
    </message>
    <message>
        <source>History</source>
        <translation>履歴</translation>
    </message>
    <message>
        <source>&amp;History (%1)</source>
        <translation>履歴(&amp;H) (%1)</translation>
    </message>
    <message numerus="yes">
        <source>Thought (%n token(s))</source>
        <translation>
            <numerusform>思考（%n トークン）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Thought (%n token(s), budget used up)</source>
        <translation>
            <numerusform>思考（%n トークン、上限に到達）</numerusform>
        </translation>
    </message>
    <message>
        <source>Encode %1 · decode %2 · readout %3</source>
        <translation>エンコード %1 · デコード %2 · 読み出し %3</translation>
    </message>
    <message>
        <source> · network %1</source>
        <translation> · ネットワーク %1</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message numerus="yes">
        <source>  —  %n stage(s), %1 decoder passes: </source>
        <translation>
            <numerusform>  —  %n ステージ、デコーダパス %1 回: </numerusform>
        </translation>
    </message>
    <message>
        <source>Running…</source>
        <translation>実行中…</translation>
    </message>
    <message>
        <source>%1 prompt tokens (%2 cached)</source>
        <translation>プロンプト %1 トークン（キャッシュ %2）</translation>
    </message>
    <message>
        <source>%1 prompt tokens</source>
        <translation>プロンプト %1 トークン</translation>
    </message>
    <message>
        <source> · total %1  —  %2 read(s) × %3 sample(s), %4, %5</source>
        <translation> · 合計 %1  —  読み取り %2 回 × サンプル %3、%4、%5</translation>
    </message>
</context>
<context>
    <name>ui::SourceEditor</name>
    <message numerus="yes">
        <source>Valid: renders to a schema with %n question(s).</source>
        <translation>
            <numerusform>有効: 質問 %n 問のスキーマになります。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ui::TokenFlow</name>
    <message>
        <source>position %1 · id %2 · “%3”</source>
        <translation>位置 %1 · ID %2 · 「%3」</translation>
    </message>
    <message>
        <source>
answer slot of “%1”: %2
this draw&apos;s noise token is id %3</source>
        <translation>
「%1」の回答スロット: %2
このドローのノイズトークンの ID は %3</translation>
    </message>
    <message>
        <source>answer slot of %1: %2</source>
        <translation>%1 の回答スロット: %2</translation>
    </message>
    <message>
        <source> or </source>
        <comment>between the labels of a slot</comment>
        <translation> または </translation>
    </message>
    <message>
        <source>padding, position %1</source>
        <translation>パディング、位置 %1</translation>
    </message>
    <message>
        <source>special token %1, position %2</source>
        <translation>特殊トークン %1、位置 %2</translation>
    </message>
    <message>
        <source>token “%1”, position %2</source>
        <translation>トークン「%1」、位置 %2</translation>
    </message>
    <message numerus="yes">
        <source>%1
%n soft token(s) the vision tower reads from it, at position %2</source>
        <translation>
            <numerusform>%1
ビジョンタワーが読み取るソフトトークン %n 個、位置 %2</numerusform>
        </translation>
    </message>
    <message>
        <source>%1
sent as a data: URI; the model that reads it places its soft tokens here</source>
        <translation>%1
data: URI として送信。読み取るモデルがここにソフトトークンを配置します</translation>
    </message>
</context>
<context>
    <name>ui::UndoRoutingEdit</name>
    <message>
        <source>&amp;Undo</source>
        <translation>元に戻す(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>やり直し(&amp;R)</translation>
    </message>
</context>
<context>
    <name>ui::VariablesModel</name>
    <message>
        <source>The template does not read this variable</source>
        <translation>テンプレートはこの変数を読みません</translation>
    </message>
    <message>
        <source>A run setting the template reads</source>
        <translation>テンプレートが読む実行設定</translation>
    </message>
    <message>
        <source>An input the template reads</source>
        <translation>テンプレートが読む入力</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>テキスト</translation>
    </message>
    <message>
        <source>JSON value: %1</source>
        <translation>JSON 値: %1</translation>
    </message>
    <message>
        <source>Variable</source>
        <translation>変数</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>値</translation>
    </message>
</context>
<context>
    <name>ui::VariablesPanel</name>
    <message>
        <source>Variables</source>
        <translation>変数</translation>
    </message>
    <message>
        <source>Add variable…</source>
        <translation>変数を追加…</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>削除</translation>
    </message>
    <message>
        <source>Reset to samples</source>
        <translation>サンプル値に戻す</translation>
    </message>
    <message>
        <source>The policy&apos;s sample values (&lt;name&gt;.vars.json)</source>
        <translation>ポリシーのサンプル値（&lt;name&gt;.vars.json）</translation>
    </message>
    <message>
        <source>Add variable</source>
        <translation>変数を追加</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>名前:</translation>
    </message>
</context>
<context>
    <name>ui::WideOptionsDialog</name>
    <message>
        <source>%1: every option</source>
        <translation>%1: すべての選択肢</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>順位</translation>
    </message>
    <message>
        <source>Option</source>
        <translation>選択肢</translation>
    </message>
    <message>
        <source>Label</source>
        <translation>ラベル</translation>
    </message>
    <message>
        <source>Probability</source>
        <translation>確率</translation>
    </message>
    <message>
        <source>± stderr</source>
        <translation>± 標準誤差</translation>
    </message>
    <message>
        <source>Search the %1 options</source>
        <translation>%1 個の選択肢を検索</translation>
    </message>
</context>
</TS>
