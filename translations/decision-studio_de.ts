<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de" sourcelanguage="en">
<context>
    <name>QObject</name>
    <message>
        <source>…</source>
        <translation>…</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>k. A.</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message>
        <source>no</source>
        <translation>nein</translation>
    </message>
    <message>
        <source>slot %1 · generative %2</source>
        <translation>Slot %1 · generativ %2</translation>
    </message>
    <message>
        <source>%1 of %2 answered by both</source>
        <translation>%1 von %2 von beiden beantwortet</translation>
    </message>
    <message>
        <source>no answer</source>
        <translation>keine Antwort</translation>
    </message>
    <message>
        <source>valid JSON</source>
        <translation>gültiges JSON</translation>
    </message>
    <message>
        <source>invalid: %1</source>
        <translation>ungültig: %1</translation>
    </message>
</context>
<context>
    <name>core::BackendRunner</name>
    <message>
        <source>loading model</source>
        <translation>Modell wird geladen</translation>
    </message>
    <message>
        <source>planning</source>
        <translation>Planung</translation>
    </message>
    <message>
        <source>encoding</source>
        <translation>Kodierung</translation>
    </message>
    <message>
        <source>thinking</source>
        <translation>Denkt nach</translation>
    </message>
    <message>
        <source>decoding</source>
        <translation>Dekodierung</translation>
    </message>
    <message>
        <source>generating</source>
        <translation>Generierung</translation>
    </message>
    <message>
        <source>waiting for server</source>
        <translation>Warten auf den Server</translation>
    </message>
    <message>
        <source>reading canvas rows</source>
        <translation>Canvas-Zeilen werden gelesen</translation>
    </message>
    <message>
        <source>done</source>
        <translation>fertig</translation>
    </message>
    <message>
        <source>decoding canvas %1</source>
        <translation>Dekodierung von Canvas %1</translation>
    </message>
    <message>
        <source>asking stage 2</source>
        <translation>frage Stufe 2</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Single-pass structured decisions with DiffusionGemma</source>
        <translation>Strukturierte Entscheidungen in einem Durchlauf mit DiffusionGemma</translation>
    </message>
    <message>
        <source>Use the dark palette.</source>
        <translation>Die dunkle Farbpalette verwenden.</translation>
    </message>
    <message>
        <source>Use the light palette.</source>
        <translation>Die helle Farbpalette verwenden.</translation>
    </message>
    <message>
        <source>Open this policy (name).</source>
        <translation>Diese Richtlinie öffnen (Name).</translation>
    </message>
    <message>
        <source>NAME</source>
        <translation>NAME</translation>
    </message>
    <message>
        <source>Show the Studio in this language: de, ja or en (default: the system locale&apos;s).</source>
        <translation>Das Studio in dieser Sprache anzeigen: de, ja oder en (Standard: die Sprache des Systems).</translation>
    </message>
    <message>
        <source>LANG</source>
        <translation>SPRACHE</translation>
    </message>
</context>
<context>
    <name>ui::BenchItemsModel</name>
    <message>
        <source>(failed)</source>
        <translation>(fehlgeschlagen)</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message>
        <source>no</source>
        <translation>nein</translation>
    </message>
    <message>
        <source>Item</source>
        <translation>Aufgabe</translation>
    </message>
    <message>
        <source>Tier</source>
        <translation>Stufe</translation>
    </message>
    <message>
        <source>Family</source>
        <translation>Familie</translation>
    </message>
    <message>
        <source>Expected</source>
        <translation>Erwartet</translation>
    </message>
    <message>
        <source>Predicted</source>
        <translation>Vorhergesagt</translation>
    </message>
    <message>
        <source>p</source>
        <translation>p</translation>
    </message>
    <message>
        <source>Correct</source>
        <translation>Richtig</translation>
    </message>
    <message>
        <source>Latency (ms)</source>
        <translation>Latenz (ms)</translation>
    </message>
</context>
<context>
    <name>ui::BenchWindow</name>
    <message>
        <source>Bench — Decision Studio</source>
        <translation>Bench — Decision Studio</translation>
    </message>
    <message>
        <source>JevBench v1.4 public items</source>
        <translation>Öffentliche Aufgaben von JevBench v1.4</translation>
    </message>
    <message>
        <source>Shipped suite: %1</source>
        <translation>Mitgelieferte Suite: %1</translation>
    </message>
    <message>
        <source>Open suite…</source>
        <translation>Suite öffnen…</translation>
    </message>
    <message>
        <source>How Speed is scored (JevBench endpoint kinds)</source>
        <translation>Wie die Geschwindigkeit bewertet wird (JevBench-Endpunktarten)</translation>
    </message>
    <message>
        <source>all</source>
        <translation>alle</translation>
    </message>
    <message>
        <source>slot</source>
        <translation>Slot</translation>
    </message>
    <message>
        <source>generative</source>
        <translation>generativ</translation>
    </message>
    <message>
        <source>both</source>
        <translation>beides</translation>
    </message>
    <message>
        <source>How each item is asked: the slot readout (one pass), generative JSON (parsed strictly), or both one after the other on the same endpoint</source>
        <translation>Wie jede Aufgabe gestellt wird: per Slot-Auslesung (ein Durchlauf), als generatives JSON (streng geparst) oder beides nacheinander am selben Endpunkt</translation>
    </message>
    <message>
        <source>auto</source>
        <translation>automatisch</translation>
    </message>
    <message>
        <source>Completion tokens a generative answer may use (auto: what the item&apos;s questions need)</source>
        <translation>Completion-Tokens, die eine generative Antwort verwenden darf (automatisch: so viele, wie die Fragen der Aufgabe brauchen)</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Ausführen</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Fortsetzen</translation>
    </message>
    <message>
        <source>Continue the selected interrupted run from its journal</source>
        <translation>Den ausgewählten unterbrochenen Lauf anhand seines Journals fortsetzen</translation>
    </message>
    <message>
        <source>Export re&amp;port…</source>
        <translation>Be&amp;richt exportieren…</translation>
    </message>
    <message>
        <source>The shown run as a report: HTML, PDF, CSV or JSON, with a preview (Ctrl+Shift+E)</source>
        <translation>Den angezeigten Lauf als Bericht: HTML, PDF, CSV oder JSON, mit Vorschau (Strg+Umschalt+E)</translation>
    </message>
    <message>
        <source>Export report…</source>
        <translation>Bericht exportieren…</translation>
    </message>
    <message>
        <source>Suite:</source>
        <translation>Suite:</translation>
    </message>
    <message>
        <source>Endpoint:</source>
        <translation>Endpunkt:</translation>
    </message>
    <message>
        <source>Workers:</source>
        <translation>Worker:</translation>
    </message>
    <message>
        <source>Items:</source>
        <translation>Aufgaben:</translation>
    </message>
    <message>
        <source>Mode:</source>
        <translation>Modus:</translation>
    </message>
    <message>
        <source>Max tokens:</source>
        <translation>Max. Tokens:</translation>
    </message>
    <message>
        <source>Pick a suite and an endpoint, then Run.</source>
        <translation>Wählen Sie eine Suite und einen Endpunkt, dann „Ausführen“.</translation>
    </message>
    <message>
        <source>Filter items (id, tier, family, labels…)</source>
        <translation>Aufgaben filtern (ID, Stufe, Familie, Labels…)</translation>
    </message>
    <message>
        <source>Items</source>
        <translation>Aufgaben</translation>
    </message>
    <message>
        <source>Charts</source>
        <translation>Diagramme</translation>
    </message>
    <message>
        <source>Slot vs generative</source>
        <translation>Slot vs. generativ</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>Läufe</translation>
    </message>
    <message>
        <source>Open a suite</source>
        <translation>Eine Suite öffnen</translation>
    </message>
    <message>
        <source>Suites (*.jsonl *.json);;All files (*)</source>
        <translation>Suiten (*.jsonl *.json);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>bench item %1</source>
        <translation>Bench-Aufgabe %1</translation>
    </message>
    <message>
        <source>%1: %2 items</source>
        <translation>%1: %2 Aufgaben</translation>
    </message>
    <message>
        <source>Cannot create the run folder %1</source>
        <translation>Der Ordner für den Lauf kann nicht angelegt werden: %1</translation>
    </message>
    <message>
        <source>%1: no run.json; not a kept run</source>
        <translation>%1: keine run.json; kein gespeicherter Lauf</translation>
    </message>
    <message>
        <source>No endpoint: add one in Endpoints (Ctrl+E).</source>
        <translation>Kein Endpunkt: Fügen Sie unter „Endpunkte“ einen hinzu (Strg+E).</translation>
    </message>
    <message>
        <source>Resuming…</source>
        <translation>Wird fortgesetzt…</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>Wird gestartet…</translation>
    </message>
    <message>
        <source>%1 / %2 items · %3 failed · %4 items/s · ETA %5</source>
        <translation>%1 / %2 Aufgaben · %3 fehlgeschlagen · %4 Aufgaben/s · Rest %5</translation>
    </message>
    <message>
        <source> · %1 from the journal</source>
        <translation> · %1 aus dem Journal</translation>
    </message>
    <message>
        <source>Cancelled after %1 of %2 items; Resume continues it</source>
        <translation>Abgebrochen nach %1 von %2 Aufgaben; „Fortsetzen“ setzt den Lauf fort</translation>
    </message>
    <message>
        <source>Finished %1 items in %2 s</source>
        <translation>%1 Aufgaben in %2 s abgeschlossen</translation>
    </message>
    <message>
        <source>&lt;b&gt;Accuracy&lt;/b&gt; %1% (%2/%3, %4 failed) · &lt;b&gt;Intelligence&lt;/b&gt; %5 · &lt;b&gt;Calibration&lt;/b&gt; %6 · &lt;b&gt;Speed&lt;/b&gt; %7 (p50 %8 s) · &lt;b&gt;Cost&lt;/b&gt; %9%10 · &lt;b&gt;Composite&lt;/b&gt; %11 &lt;i&gt;(public items only: an estimate, not a rank)&lt;/i&gt;</source>
        <translation>&lt;b&gt;Genauigkeit&lt;/b&gt; %1&#xa0;% (%2/%3, %4 fehlgeschlagen) · &lt;b&gt;Intelligenz&lt;/b&gt; %5 · &lt;b&gt;Kalibrierung&lt;/b&gt; %6 · &lt;b&gt;Geschwindigkeit&lt;/b&gt; %7 (p50 %8 s) · &lt;b&gt;Kosten&lt;/b&gt; %9%10 · &lt;b&gt;Gesamt&lt;/b&gt; %11 &lt;i&gt;(nur öffentliche Aufgaben: eine Schätzung, kein Rang)&lt;/i&gt;</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>k. A.</translation>
    </message>
    <message>
        <source> (estimate)</source>
        <translation> (Schätzung)</translation>
    </message>
    <message>
        <source>&lt;b&gt;Cases correct&lt;/b&gt; %1% (%2/%3, %4 failed) · &lt;b&gt;Answers correct&lt;/b&gt; %5% · &lt;b&gt;Mean confidence&lt;/b&gt; %6 · &lt;b&gt;ECE&lt;/b&gt; %7 · &lt;b&gt;Brier&lt;/b&gt; %8 · &lt;b&gt;p50&lt;/b&gt; %9 s</source>
        <translation>&lt;b&gt;Fälle richtig&lt;/b&gt; %1&#xa0;% (%2/%3, %4 fehlgeschlagen) · &lt;b&gt;Antworten richtig&lt;/b&gt; %5&#xa0;% · &lt;b&gt;Mittlere Konfidenz&lt;/b&gt; %6 · &lt;b&gt;ECE&lt;/b&gt; %7 · &lt;b&gt;Brier&lt;/b&gt; %8 · &lt;b&gt;p50&lt;/b&gt; %9 s</translation>
    </message>
    <message>
        <source>Reliability (all items)</source>
        <translation>Zuverlässigkeit (alle Aufgaben)</translation>
    </message>
    <message>
        <source>Accuracy by tier</source>
        <translation>Genauigkeit nach Stufe</translation>
    </message>
    <message>
        <source>Accuracy by family</source>
        <translation>Genauigkeit nach Familie</translation>
    </message>
    <message>
        <source>Reliability (every answer)</source>
        <translation>Zuverlässigkeit (jede Antwort)</translation>
    </message>
    <message>
        <source>Accuracy by domain</source>
        <translation>Genauigkeit nach Bereich</translation>
    </message>
    <message>
        <source>&lt;b&gt;Slot&lt;/b&gt;: accuracy %1% (%2/%3) · p50 %4 · p95 %5 · %6 pass(es) &amp;nbsp;&amp;nbsp; &lt;b&gt;Generative&lt;/b&gt;: accuracy %7% (%8/%9) · valid JSON %10% (%11/%12) · p50 %13 · p95 %14 · %15 passes · %16 completion tokens (means) &amp;nbsp;&amp;nbsp; &lt;b&gt;Agreement&lt;/b&gt; %17% (%18 of %19 answers) · &lt;b&gt;latency ratio&lt;/b&gt; %20× (generative p50 / slot p50) · %21 items</source>
        <translation>&lt;b&gt;Slot&lt;/b&gt;: Genauigkeit %1&#xa0;% (%2/%3) · p50 %4 · p95 %5 · %6 Durchläufe &amp;nbsp;&amp;nbsp; &lt;b&gt;Generativ&lt;/b&gt;: Genauigkeit %7&#xa0;% (%8/%9) · gültiges JSON %10&#xa0;% (%11/%12) · p50 %13 · p95 %14 · %15 Durchläufe · %16 Completion-Tokens (Mittelwerte) &amp;nbsp;&amp;nbsp; &lt;b&gt;Übereinstimmung&lt;/b&gt; %17&#xa0;% (%18 von %19 Antworten) · &lt;b&gt;Latenzverhältnis&lt;/b&gt; %20× (generativ p50 / Slot p50) · %21 Aufgaben</translation>
    </message>
    <message>
        <source>%1 · %2 · %3 · %4</source>
        <translation>%1 · %2 · %3 · %4</translation>
    </message>
    <message>
        <source>Run %1 (%2): %3 of %4 items</source>
        <translation>Lauf %1 (%2): %3 von %4 Aufgaben</translation>
    </message>
    <message>
        <source>Show all items</source>
        <translation>Alle Einträge zeigen</translation>
    </message>
    <message numerus="yes">
        <source>Showing %n item(s) of %1</source>
        <translation>
            <numerusform>%n Eintrag aus %1</numerusform>
            <numerusform>%n Einträge aus %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Calibrate…</source>
        <translation>Kalibrieren…</translation>
    </message>
    <message>
        <source>Fit the open policy&apos;s temperature from this run&apos;s labelled questions</source>
        <translation>Die Temperatur der geöffneten Richtlinie aus den beschrifteten Fragen dieses Laufs anpassen</translation>
    </message>
</context>
<context>
    <name>ui::CalibrateDialog</name>
    <message>
        <source>Calibrate — Decision Studio</source>
        <translation>Kalibrieren — Decision Studio</translation>
    </message>
    <message numerus="yes">
        <source>Fits the temperature per question type on %n labelled question(s) of %1 by minimising the held-out negative log-likelihood of the expected answer (a proper scoring rule: it is lowest when the probabilities mean what they say; a temperature never changes an answer). The figures are measured on the held-out folds.</source>
        <translation>
            <numerusform>Passt die Temperatur je Fragetyp an %n beschriftete Frage aus %1 an, indem die zurückgehaltene negative Log-Likelihood der erwarteten Antwort minimiert wird (eine echte Bewertungsregel: sie ist am kleinsten, wenn die Wahrscheinlichkeiten meinen, was sie sagen; eine Temperatur ändert nie eine Antwort). Die Werte werden auf den zurückgehaltenen Teilen gemessen.</numerusform>
            <numerusform>Passt die Temperatur je Fragetyp an %n beschriftete Fragen aus %1 an, indem die zurückgehaltene negative Log-Likelihood der erwarteten Antwort minimiert wird (eine echte Bewertungsregel: sie ist am kleinsten, wenn die Wahrscheinlichkeiten meinen, was sie sagen; eine Temperatur ändert nie eine Antwort). Die Werte werden auf den zurückgehaltenen Teilen gemessen.</numerusform>
        </translation>
    </message>
    <message>
        <source>Fitting…</source>
        <translation>Anpassung läuft…</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <source>Questions</source>
        <translation>Fragen</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>Temperatur</translation>
    </message>
    <message>
        <source>Search range</source>
        <translation>Suchbereich</translation>
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
        <translation>In Richtlinie &amp;schreiben</translation>
    </message>
    <message>
        <source>Cancel fit</source>
        <translation>Anpassung abbrechen</translation>
    </message>
    <message>
        <source>Cancelled: nothing was fitted or written.</source>
        <translation>Abgebrochen: nichts wurde angepasst oder geschrieben.</translation>
    </message>
    <message>
        <source>The fit failed: %1</source>
        <translation>Die Anpassung ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>not fitted</source>
        <translation>nicht angepasst</translation>
    </message>
    <message>
        <source>at its edge</source>
        <translation>am Rand</translation>
    </message>
    <message>
        <source>inside</source>
        <translation>innerhalb</translation>
    </message>
    <message>
        <source>1 (kept)</source>
        <translation>1 (beibehalten)</translation>
    </message>
    <message>
        <source>all</source>
        <translation>alle</translation>
    </message>
    <message>
        <source>%1-fold cross-validation; the value written is the fit on every question of its type.</source>
        <translation>%1-fache Kreuzvalidierung; geschrieben wird die Anpassung an alle Fragen des Typs.</translation>
    </message>
    <message>
        <source>Nothing was fitted: every question type has too few labelled questions. The policy is left as it is.</source>
        <translation>Nichts wurde angepasst: jeder Fragetyp hat zu wenige beschriftete Fragen. Die Richtlinie bleibt unverändert.</translation>
    </message>
    <message>
        <source>Every fit landed inside its search range %1.</source>
        <translation>Jede Anpassung liegt innerhalb ihres Suchbereichs %1.</translation>
    </message>
    <message>
        <source>A fit ended at the edge of its search range %1: the best temperature may lie beyond it.</source>
        <translation>Eine Anpassung endete am Rand ihres Suchbereichs %1: die beste Temperatur kann außerhalb liegen.</translation>
    </message>
    <message>
        <source>Reliability before</source>
        <translation>Zuverlässigkeit vorher</translation>
    </message>
    <message>
        <source>Reliability after</source>
        <translation>Zuverlässigkeit nachher</translation>
    </message>
    <message>
        <source>There is no fit to write.</source>
        <translation>Es gibt keine Anpassung zum Schreiben.</translation>
    </message>
    <message>
        <source>No policy is open to take the temperature.</source>
        <translation>Keine Richtlinie ist geöffnet, die die Temperatur aufnimmt.</translation>
    </message>
    <message>
        <source>The policy cannot take the temperature: %1</source>
        <translation>Die Richtlinie kann die Temperatur nicht aufnehmen: %1</translation>
    </message>
    <message>
        <source>Calibrate temperature</source>
        <translation>Temperatur kalibrieren</translation>
    </message>
    <message>
        <source>The policy already has this temperature.</source>
        <translation>Die Richtlinie hat diese Temperatur bereits.</translation>
    </message>
</context>
<context>
    <name>ui::CanvasModel</name>
    <message>
        <source>The policy has no valid schema yet.</source>
        <translation>Die Richtlinie hat noch kein gültiges Schema.</translation>
    </message>
    <message>
        <source>No tokenizer: choose a local model folder in Endpoints.</source>
        <translation>Kein Tokenizer: Wählen Sie unter „Endpunkte“ einen lokalen Modellordner.</translation>
    </message>
    <message>
        <source> · stage 1 of %1 (later stages add the answers before them)</source>
        <translation> · Stufe 1 von %1 (spätere Stufen fügen die vorherigen Antworten hinzu)</translation>
    </message>
    <message>
        <source> · thinks first (up to %1 tokens; run to see the thought)</source>
        <translation> · denkt zuerst nach (bis zu %1 Tokens; ausführen, um den Gedanken zu sehen)</translation>
    </message>
    <message>
        <source> · after the last run&apos;s thought (%1 tokens)</source>
        <translation> · nach dem Gedanken des letzten Laufs (%1 Tokens)</translation>
    </message>
    <message>
        <source>%1 · prompt %2 tokens · canvas width %3 (answer %4 tokens) · %5 slot(s) · %6 read group(s) · %7 first read(s)</source>
        <translation>%1 · Prompt %2 Tokens · Canvas-Breite %3 (Antwort %4 Tokens) · %5 Slot(s) · %6 Lesegruppe(n) · %7 erste Lesung(en)</translation>
    </message>
    <message>
        <source>schema first</source>
        <translation>Schema zuerst</translation>
    </message>
    <message>
        <source>document first</source>
        <translation>Dokument zuerst</translation>
    </message>
    <message numerus="yes">
        <source>image %1 · %n token(s)</source>
        <translation>
            <numerusform>Bild %1 · %n Token</numerusform>
            <numerusform>Bild %1 · %n Tokens</numerusform>
        </translation>
    </message>
    <message>
        <source>image %1</source>
        <translation>Bild %1</translation>
    </message>
    <message>
        <source> · round 1 of %1&apos;s tournament: %2 brackets of its %3 options (the final reads each bracket&apos;s leaders after this read)</source>
        <translation> · Runde 1 des Turniers von %1: %2 Gruppen aus seinen %3 Optionen (das Finale liest nach diesem Lesen die Spitzenreiter jeder Gruppe)</translation>
    </message>
    <message numerus="yes">
        <source> · the last %n group(s): the final over the last run&apos;s finalists</source>
        <translation>
            <numerusform> · die letzte %n Gruppe: das Finale über die Finalisten des letzten Laufs</numerusform>
            <numerusform> · die letzten %n Gruppen: das Finale über die Finalisten des letzten Laufs</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ui::CanvasView</name>
    <message>
        <source>Document first</source>
        <translation>Dokument zuerst</translation>
    </message>
    <message>
        <source>Schema first</source>
        <translation>Schema zuerst</translation>
    </message>
    <message>
        <source>draw </source>
        <translation>Ziehung </translation>
    </message>
    <message>
        <source>&amp;Layout</source>
        <translation>&amp;Layout</translation>
    </message>
    <message>
        <source>S&amp;eed</source>
        <translation>S&amp;eed</translation>
    </message>
    <message>
        <source>&amp;Group</source>
        <translation>&amp;Gruppe</translation>
    </message>
    <message>
        <source>&amp;Noise</source>
        <translation>&amp;Rauschen</translation>
    </message>
    <message>
        <source>&lt;b&gt;Prompt&lt;/b&gt;</source>
        <translation>&lt;b&gt;Prompt&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Canvas&lt;/b&gt; (answer slots outlined, with their labels)</source>
        <translation>&lt;b&gt;Canvas&lt;/b&gt; (Antwort-Slots umrandet, mit ihren Labels)</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>pos %1 · %2 · labels %3 · noise id %4</source>
        <translation>Pos. %1 · %2 · Labels %3 · Rausch-ID %4</translation>
    </message>
    <message>
        <source>Prompt tokens</source>
        <translation>Prompt-Tokens</translation>
    </message>
    <message>
        <source>Canvas tokens</source>
        <translation>Canvas-Tokens</translation>
    </message>
</context>
<context>
    <name>ui::ChartWidget</name>
    <message>
        <source>Reset zoom</source>
        <translation>Zoom zurücksetzen</translation>
    </message>
    <message>
        <source>No data to chart</source>
        <translation>Keine Daten für dieses Diagramm</translation>
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
            <numerusform>%n Eintrag</numerusform>
            <numerusform>%n Einträge</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> and %n more</source>
        <translation>
            <numerusform> und %n weiterer</numerusform>
            <numerusform> und %n weitere</numerusform>
        </translation>
    </message>
    <message>
        <source>Save chart</source>
        <translation>Diagramm speichern</translation>
    </message>
    <message>
        <source>Copy image</source>
        <translation>Bild kopieren</translation>
    </message>
    <message>
        <source>Save as PNG…</source>
        <translation>Als PNG speichern…</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG-Bilder (*.png)</translation>
    </message>
    <message>
        <source>Save as SVG…</source>
        <translation>Als SVG speichern…</translation>
    </message>
    <message>
        <source>SVG images (*.svg)</source>
        <translation>SVG-Bilder (*.svg)</translation>
    </message>
    <message>
        <source>Copy data as CSV</source>
        <translation>Daten als CSV kopieren</translation>
    </message>
</context>
<context>
    <name>ui::CompareModel</name>
    <message>
        <source>(no valid value)</source>
        <translation>(kein gültiger Wert)</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message>
        <source>no</source>
        <translation>nein</translation>
    </message>
    <message>
        <source>Question</source>
        <translation>Frage</translation>
    </message>
    <message>
        <source>Slot answer</source>
        <translation>Slot-Antwort</translation>
    </message>
    <message>
        <source>p</source>
        <translation>p</translation>
    </message>
    <message>
        <source>Hesitation</source>
        <translation>Zögern</translation>
    </message>
    <message>
        <source>Generative answer</source>
        <translation>Generative Antwort</translation>
    </message>
    <message>
        <source>Agree</source>
        <translation>Einig</translation>
    </message>
</context>
<context>
    <name>ui::CompareWindow</name>
    <message>
        <source>Compare — Decision Studio</source>
        <translation>Vergleich — Decision Studio</translation>
    </message>
    <message>
        <source>Waiting for the first pass…</source>
        <translation>Warten auf den ersten Durchlauf…</translation>
    </message>
    <message>
        <source>Generative JSON</source>
        <translation>Generatives JSON</translation>
    </message>
    <message>
        <source>Run &amp;again</source>
        <translation>&amp;Erneut ausführen</translation>
    </message>
    <message>
        <source>Compare the policy in the editor again (Ctrl+Shift+Return)</source>
        <translation>Die Richtlinie im Editor erneut vergleichen (Strg+Umschalt+Eingabe)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Export re&amp;port…</source>
        <translation>Be&amp;richt exportieren…</translation>
    </message>
    <message>
        <source>This comparison as a report: HTML, PDF, CSV or JSON, with a preview (Ctrl+Shift+E)</source>
        <translation>Diesen Vergleich als Bericht: HTML, PDF, CSV oder JSON, mit Vorschau (Strg+Umschalt+E)</translation>
    </message>
    <message>
        <source>Export report…</source>
        <translation>Bericht exportieren…</translation>
    </message>
    <message>
        <source>Passes (slot vs generative)</source>
        <translation>Durchläufe (Slot vs. generativ)</translation>
    </message>
    <message>
        <source>Latency</source>
        <translation>Latenz</translation>
    </message>
    <message>
        <source>Generative / slot time</source>
        <translation>Zeit generativ / Slot</translation>
    </message>
    <message>
        <source>Agreement</source>
        <translation>Übereinstimmung</translation>
    </message>
    <message>
        <source>Generative reply</source>
        <translation>Generative Antwort</translation>
    </message>
    <message>
        <source>Slot readout</source>
        <translation>Slot-Auslesung</translation>
    </message>
    <message>
        <source>&amp;Raw reply</source>
        <translation>&amp;Rohantwort</translation>
    </message>
    <message>
        <source>&amp;Answers, side by side</source>
        <translation>&amp;Antworten nebeneinander</translation>
    </message>
    <message>
        <source>Compare (Ctrl+Shift+Return) answers the policy in the editor both ways: the slot readout&apos;s cards show here.</source>
        <translation>„Vergleichen“ (Strg+Umschalt+Eingabe) beantwortet die Richtlinie im Editor auf beide Arten: Hier erscheinen die Karten der Slot-Auslesung.</translation>
    </message>
    <message>
        <source>One seeded forward pass reads every answer&apos;s probabilities.</source>
        <translation>Ein Vorwärtsdurchlauf mit festem Seed liest die Wahrscheinlichkeiten aller Antworten.</translation>
    </message>
    <message>
        <source>The same questions asked for one JSON object, parsed strictly (never repaired).</source>
        <translation>Dieselben Fragen, als ein JSON-Objekt erfragt und streng geparst (nie repariert).</translation>
    </message>
    <message>
        <source>No backend for the active endpoint.</source>
        <translation>Kein Backend für den aktiven Endpunkt.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; — slot readout vs generative JSON on %2</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; — Slot-Auslesung vs. generatives JSON auf %2</translation>
    </message>
    <message>
        <source>Compare %1 — Decision Studio</source>
        <translation>Vergleich %1 — Decision Studio</translation>
    </message>
    <message>
        <source>Reading the slots…</source>
        <translation>Slots werden gelesen…</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>Abgebrochen.</translation>
    </message>
    <message numerus="yes">
        <source>%n question(s) read in %1</source>
        <translation>
            <numerusform>%n Frage in %1 gelesen</numerusform>
            <numerusform>%n Fragen in %1 gelesen</numerusform>
        </translation>
    </message>
    <message>
        <source>Encode %1 · decode %2 · readout %3 · total %4 — %5 read(s), %6 prompt tokens, %7</source>
        <translation>Kodieren %1 · Dekodieren %2 · Auslesen %3 · gesamt %4 — %5 Lesung(en), %6 Prompt-Tokens, %7</translation>
    </message>
    <message>
        <source>slot %1 ms · generative …</source>
        <translation>Slot %1 ms · generativ …</translation>
    </message>
    <message>
        <source>No slot readout.</source>
        <translation>Keine Slot-Auslesung.</translation>
    </message>
    <message>
        <source>The slot readout failed: %1</source>
        <translation>Die Slot-Auslesung ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Slot readout: %1</source>
        <translation>Slot-Auslesung: %1</translation>
    </message>
    <message>
        <source>Pass %1 · %2</source>
        <translation>Durchlauf %1 · %2</translation>
    </message>
    <message>
        <source>Generative JSON: %1</source>
        <translation>Generatives JSON: %1</translation>
    </message>
    <message>
        <source>… vs %1</source>
        <translation>… vs. %1</translation>
    </message>
    <message numerus="yes">
        <source>%n question(s) · %1 · %2 decoder pass(es)</source>
        <translation>
            <numerusform>%n Frage · %1 · %2 Decoder-Durchläufe</numerusform>
            <numerusform>%n Fragen · %1 · %2 Decoder-Durchläufe</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 · %n pass(es) · %2 completion tokens · finish: %3</source>
        <translation>
            <numerusform>%1 · %n Durchlauf · %2 Completion-Tokens · Ende: %3</numerusform>
            <numerusform>%1 · %n Durchläufe · %2 Completion-Tokens · Ende: %3</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Done: %n denoising pass(es)</source>
        <translation>
            <numerusform>Fertig: %n Entrauschungsdurchlauf</numerusform>
            <numerusform>Fertig: %n Entrauschungsdurchläufe</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:%1&apos;&gt;✓ &lt;b&gt;Valid&lt;/b&gt;: one JSON object, every question answered with an allowed value.&lt;/span&gt;</source>
        <translation>&lt;span style=&apos;color:%1&apos;&gt;✓ &lt;b&gt;Gültig&lt;/b&gt;: ein JSON-Objekt, jede Frage mit einem erlaubten Wert beantwortet.&lt;/span&gt;</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:%1&apos;&gt;✗ &lt;b&gt;Invalid&lt;/b&gt; (counted wrong, never repaired):&lt;/span&gt;&lt;ul style=&apos;margin:0&apos;&gt;%2&lt;/ul&gt;</source>
        <translation>&lt;span style=&apos;color:%1&apos;&gt;✗ &lt;b&gt;Ungültig&lt;/b&gt; (als falsch gezählt, nie repariert):&lt;/span&gt;&lt;ul style=&apos;margin:0&apos;&gt;%2&lt;/ul&gt;</translation>
    </message>
    <message>
        <source>No generation.</source>
        <translation>Keine Generierung.</translation>
    </message>
    <message>
        <source>The generative side did not answer; the slot side is kept.</source>
        <translation>Die generative Seite hat nicht geantwortet; die Slot-Seite bleibt erhalten.</translation>
    </message>
    <message>
        <source>Compared %1 question(s) on %2</source>
        <translation>%1 Frage(n) auf %2 verglichen</translation>
    </message>
    <message>
        <source>The generative side failed: %1</source>
        <translation>Die generative Seite ist fehlgeschlagen: %1</translation>
    </message>
</context>
<context>
    <name>ui::ComparisonItemsModel</name>
    <message>
        <source>Item</source>
        <translation>Aufgabe</translation>
    </message>
    <message>
        <source>Tier</source>
        <translation>Stufe</translation>
    </message>
    <message>
        <source>Slot (ms)</source>
        <translation>Slot (ms)</translation>
    </message>
    <message>
        <source>Generative (ms)</source>
        <translation>Generativ (ms)</translation>
    </message>
    <message>
        <source>Slot correct</source>
        <translation>Slot richtig</translation>
    </message>
    <message>
        <source>Valid JSON</source>
        <translation>Gültiges JSON</translation>
    </message>
    <message>
        <source>Generative correct</source>
        <translation>Generativ richtig</translation>
    </message>
    <message>
        <source>Agree</source>
        <translation>Einig</translation>
    </message>
    <message>
        <source>Passes</source>
        <translation>Durchläufe</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
</context>
<context>
    <name>ui::DataRowsModel</name>
    <message>
        <source>right</source>
        <translation>richtig</translation>
    </message>
    <message>
        <source>wrong</source>
        <translation>falsch</translation>
    </message>
    <message>
        <source>row</source>
        <translation>Zeile</translation>
    </message>
</context>
<context>
    <name>ui::DataWindow</name>
    <message>
        <source>Open a CSV or JSONL file, or drop one here.</source>
        <translation>Öffnen Sie eine CSV- oder JSONL-Datei oder ziehen Sie eine hierher.</translation>
    </message>
    <message>
        <source>Open data…</source>
        <translation>Daten öffnen…</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Ausführen</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Fortsetzen</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>Exportieren…</translation>
    </message>
    <message>
        <source>Open data</source>
        <translation>Daten öffnen</translation>
    </message>
    <message>
        <source>Data (*.csv *.jsonl *.ndjson)</source>
        <translation>Daten (*.csv *.jsonl *.ndjson)</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>Exportieren</translation>
    </message>
    <message>
        <source>Rows or report (*.csv *.jsonl *.html *.pdf)</source>
        <translation>Zeilen oder Bericht (*.csv *.jsonl *.html *.pdf)</translation>
    </message>
    <message>
        <source>Data and mapping</source>
        <translation>Daten und Zuordnung</translation>
    </message>
    <message>
        <source>Rows</source>
        <translation>Zeilen</translation>
    </message>
    <message>
        <source>Questions</source>
        <translation>Fragen</translation>
    </message>
    <message>
        <source>%1 (%2 rows) through %3</source>
        <translation>%1 (%2 Zeilen) durch %3</translation>
    </message>
    <message>
        <source>(the template&apos;s default)</source>
        <translation>(Standardwert der Vorlage)</translation>
    </message>
    <message>
        <source>Resuming…</source>
        <translation>Wird fortgesetzt…</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>Wird gestartet…</translation>
    </message>
    <message>
        <source>%1 / %2 rows · %3 failed · %4 rows/s · ETA %5</source>
        <translation>%1 / %2 Zeilen · %3 fehlgeschlagen · %4 Zeilen/s · Rest %5</translation>
    </message>
    <message>
        <source>Cancelled: %1 rows kept; Resume continues.</source>
        <translation>Abgebrochen: %1 Zeilen behalten; „Fortsetzen“ setzt den Lauf fort.</translation>
    </message>
    <message>
        <source>%1 rows · %2 failed · accuracy %3</source>
        <translation>%1 Zeilen · %2 fehlgeschlagen · Genauigkeit %3</translation>
    </message>
    <message>
        <source>%1 rows · %2 failed</source>
        <translation>%1 Zeilen · %2 fehlgeschlagen</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: %2 answered, accuracy %3 · confusion: rows expected, columns answered</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;: %2 beantwortet, Genauigkeit %3 · Konfusion: Zeilen erwartet, Spalten beantwortet</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: %2 answered</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;: %2 beantwortet</translation>
    </message>
    <message>
        <source>All rows</source>
        <translation>Alle Zeilen</translation>
    </message>
    <message>
        <source>Wrong</source>
        <translation>Falsch</translation>
    </message>
    <message>
        <source>Uncertain (hesitation over 0.5)</source>
        <translation>Unsicher (Zögern über 0,5)</translation>
    </message>
    <message>
        <source>%1 = %2</source>
        <translation>%1 = %2</translation>
    </message>
    <message>
        <source>%1: no dataset.json; not a kept dataset run</source>
        <translation>%1: keine dataset.json; kein gespeicherter Datenlauf</translation>
    </message>
    <message>
        <source>The run is not complete; resume it first.</source>
        <translation>Der Lauf ist nicht vollständig; setzen Sie ihn zuerst fort.</translation>
    </message>
    <message>
        <source>Variable</source>
        <translation>Variable</translation>
    </message>
    <message>
        <source>Column</source>
        <translation>Spalte</translation>
    </message>
    <message>
        <source>rows: expected, columns: answered; click a cell for its rows</source>
        <translation>Zeilen: erwartet, Spalten: geantwortet; eine Zelle anklicken zeigt ihre Zeilen</translation>
    </message>
    <message>
        <source>%1 expected %2, answered %3</source>
        <translation>%1 erwartet %2, geantwortet %3</translation>
    </message>
    <message numerus="yes">
        <source>Chosen in a chart: %1 (%n row(s))</source>
        <translation>
            <numerusform>Im Diagramm gewählt: %1 (%n Zeile)</numerusform>
            <numerusform>Im Diagramm gewählt: %1 (%n Zeilen)</numerusform>
        </translation>
    </message>
    <message>
        <source>Calibrate…</source>
        <translation>Kalibrieren…</translation>
    </message>
    <message>
        <source>Fit the open policy&apos;s temperature from this run&apos;s labelled rows</source>
        <translation>Die Temperatur der geöffneten Richtlinie aus den beschrifteten Zeilen dieses Laufs anpassen</translation>
    </message>
</context>
<context>
    <name>ui::EndpointListModel</name>
    <message>
        <source>  (active)</source>
        <translation>  (aktiv)</translation>
    </message>
</context>
<context>
    <name>ui::EndpointsDialog</name>
    <message>
        <source>Endpoints</source>
        <translation>Endpunkte</translation>
    </message>
    <message>
        <source>Add &amp;local</source>
        <translation>&amp;Lokal hinzufügen</translation>
    </message>
    <message>
        <source>Add &amp;server</source>
        <translation>&amp;Server hinzufügen</translation>
    </message>
    <message>
        <source>Re&amp;move</source>
        <translation>Ent&amp;fernen</translation>
    </message>
    <message>
        <source>Use this &amp;one</source>
        <translation>&amp;Diesen verwenden</translation>
    </message>
    <message>
        <source>Local engine</source>
        <translation>Lokale Engine</translation>
    </message>
    <message>
        <source>Server: detect from /health</source>
        <translation>Server: über /health erkennen</translation>
    </message>
    <message>
        <source>Server: dgem chat</source>
        <translation>Server: dgem-Chat</translation>
    </message>
    <message>
        <source>Server: System One</source>
        <translation>Server: System One</translation>
    </message>
    <message>
        <source>Server: vLLM structured reads</source>
        <translation>Server: strukturierte vLLM-Lesungen</translation>
    </message>
    <message>
        <source>&amp;Name</source>
        <translation>&amp;Name</translation>
    </message>
    <message>
        <source>&amp;Kind</source>
        <translation>&amp;Art</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>&amp;Durchsuchen…</translation>
    </message>
    <message>
        <source>Automatic</source>
        <translation>Automatisch</translation>
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
        <translation>CUDA (keine GPU gefunden)</translation>
    </message>
    <message>
        <source>Model &amp;folder</source>
        <translation>Modell&amp;ordner</translation>
    </message>
    <message>
        <source>&amp;Device</source>
        <translation>&amp;Gerät</translation>
    </message>
    <message>
        <source>the server&apos;s default</source>
        <translation>Standard des Servers</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>None</source>
        <translation>Keine</translation>
    </message>
    <message>
        <source>Bearer token (keychain)</source>
        <translation>Bearer-Token (Schlüsselbund)</translation>
    </message>
    <message>
        <source>gcloud identity token (Cloud Run)</source>
        <translation>gcloud-Identitätstoken (Cloud Run)</translation>
    </message>
    <message>
        <source>gcloud access token (Vertex)</source>
        <translation>gcloud-Zugriffstoken (Vertex)</translation>
    </message>
    <message>
        <source>paste to store it in the keychain</source>
        <translation>einfügen, um es im Schlüsselbund zu speichern</translation>
    </message>
    <message>
        <source>Save &amp;token</source>
        <translation>&amp;Token speichern</translation>
    </message>
    <message>
        <source>Send a server &amp;key (X-DGem-Key)</source>
        <translation>Einen Server-&amp;Schlüssel senden (X-DGem-Key)</translation>
    </message>
    <message>
        <source>Save &amp;key</source>
        <translation>Schlüssel s&amp;peichern</translation>
    </message>
    <message>
        <source>folder with tokenizer.json (vLLM structured reads)</source>
        <translation>Ordner mit tokenizer.json (strukturierte vLLM-Lesungen)</translation>
    </message>
    <message>
        <source>&amp;URL</source>
        <translation>&amp;URL</translation>
    </message>
    <message>
        <source>M&amp;odel</source>
        <translation>M&amp;odell</translation>
    </message>
    <message>
        <source>T&amp;imeout</source>
        <translation>&amp;Zeitlimit</translation>
    </message>
    <message>
        <source>&amp;Auth</source>
        <translation>A&amp;uthentifizierung</translation>
    </message>
    <message>
        <source>Token</source>
        <translation>Token</translation>
    </message>
    <message>
        <source>Server key</source>
        <translation>Server-Schlüssel</translation>
    </message>
    <message>
        <source>Tokeni&amp;zer</source>
        <translation>Tokeni&amp;zer</translation>
    </message>
    <message>
        <source>&amp;Test connection</source>
        <translation>Verbindung &amp;testen</translation>
    </message>
    <message>
        <source>Model folder</source>
        <translation>Modellordner</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>Server</translation>
    </message>
    <message>
        <source>⚠ Set the URL first: secrets are stored per URL.</source>
        <translation>⚠ Legen Sie zuerst die URL fest: Geheimnisse werden pro URL gespeichert.</translation>
    </message>
    <message>
        <source>⚠ Keychain: %1</source>
        <translation>⚠ Schlüsselbund: %1</translation>
    </message>
    <message>
        <source>Removed from the keychain.</source>
        <translation>Aus dem Schlüsselbund entfernt.</translation>
    </message>
    <message>
        <source>Saved in the system keychain (never in settings).</source>
        <translation>Im Schlüsselbund des Systems gespeichert (nie in den Einstellungen).</translation>
    </message>
    <message>
        <source>Connecting…</source>
        <translation>Verbindung wird hergestellt…</translation>
    </message>
    <message>
        <source>Loading the model…</source>
        <translation>Modell wird geladen…</translation>
    </message>
    <message>
        <source>✔ Ready</source>
        <translation>✔ Bereit</translation>
    </message>
    <message>
        <source>… Reachable, not ready yet</source>
        <translation>… Erreichbar, noch nicht bereit</translation>
    </message>
    <message>
        <source>protocol %1</source>
        <translation>Protokoll %1</translation>
    </message>
    <message>
        <source>model %1</source>
        <translation>Modell %1</translation>
    </message>
    <message>
        <source>One URL, or several separated by commas: decisions go to the first server that is up and fail over to the next; bench workers spread over all of them.</source>
        <translation>Eine URL oder mehrere, durch Kommas getrennt: Entscheidungen gehen an den ersten erreichbaren Server und weichen bei Ausfall auf den nächsten aus; Bench-Worker verteilen sich auf alle.</translation>
    </message>
    <message>
        <source>PEM file of a private CA (besides the system store)</source>
        <translation>PEM-Datei einer privaten CA (zusätzlich zum Systemspeicher)</translation>
    </message>
    <message>
        <source>PEM certificate for mutual TLS</source>
        <translation>PEM-Zertifikat für gegenseitiges TLS</translation>
    </message>
    <message>
        <source>its private key (PEM, unencrypted)</source>
        <translation>sein privater Schlüssel (PEM, unverschlüsselt)</translation>
    </message>
    <message>
        <source>http://user@host:port; empty: HTTPS_PROXY/NO_PROXY; direct: none</source>
        <translation>http://benutzer@host:port; leer: HTTPS_PROXY/NO_PROXY; direct: keiner</translation>
    </message>
    <message>
        <source>the proxy user&apos;s password, kept in the keychain</source>
        <translation>das Passwort des Proxy-Benutzers, im Schlüsselbund gespeichert</translation>
    </message>
    <message>
        <source>Save pass&amp;word</source>
        <translation>Pass&amp;wort speichern</translation>
    </message>
    <message>
        <source>CA &amp;file</source>
        <translation>CA-&amp;Datei</translation>
    </message>
    <message>
        <source>Client &amp;certificate</source>
        <translation>Client-&amp;Zertifikat</translation>
    </message>
    <message>
        <source>Client &amp;key</source>
        <translation>Client-&amp;Schlüssel</translation>
    </message>
    <message>
        <source>&amp;Proxy</source>
        <translation>&amp;Proxy</translation>
    </message>
    <message>
        <source>Proxy password</source>
        <translation>Proxy-Passwort</translation>
    </message>
    <message>
        <source>⚠ Set a proxy with a user first (http://user@host:port).</source>
        <translation>⚠ Legen Sie zuerst einen Proxy mit Benutzer fest (http://benutzer@host:port).</translation>
    </message>
</context>
<context>
    <name>ui::ExportReportDialog</name>
    <message>
        <source>Export report — %1</source>
        <translation>Bericht exportieren — %1</translation>
    </message>
    <message>
        <source>One self-contained file: inline styles and charts, printable</source>
        <translation>Eine eigenständige Datei: eingebettete Stile und Diagramme, druckbar</translation>
    </message>
    <message>
        <source>Pages with vector charts, page numbers and repeated table headers</source>
        <translation>Seiten mit Vektordiagrammen, Seitenzahlen und wiederholten Tabellenköpfen</translation>
    </message>
    <message>
        <source>One row per item and question (UTF-8, RFC 4180)</source>
        <translation>Eine Zeile pro Aufgabe und Frage (UTF-8, RFC 4180)</translation>
    </message>
    <message>
        <source>The full data, with report_version</source>
        <translation>Alle Daten, mit report_version</translation>
    </message>
    <message>
        <source>&amp;Format:</source>
        <translation>&amp;Format:</translation>
    </message>
    <message>
        <source>A4</source>
        <translation>A4</translation>
    </message>
    <message>
        <source>Letter</source>
        <translation>US-Letter</translation>
    </message>
    <message>
        <source>&amp;Page size:</source>
        <translation>&amp;Seitengröße:</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>&amp;Exportieren…</translation>
    </message>
    <message>
        <source>… (the preview shows the first %1 of %2 characters; the file has all of them)</source>
        <translation>… (die Vorschau zeigt die ersten %1 von %2 Zeichen; die Datei enthält alle)</translation>
    </message>
    <message numerus="yes">
        <source>%n line(s)</source>
        <translation>
            <numerusform>%n Zeile</numerusform>
            <numerusform>%n Zeilen</numerusform>
        </translation>
    </message>
    <message>
        <source>Page %1 of %2</source>
        <translation>Seite %1 von %2</translation>
    </message>
    <message numerus="yes">
        <source>%n page(s)</source>
        <translation>
            <numerusform>%n Seite</numerusform>
            <numerusform>%n Seiten</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n page(s) when printed</source>
        <translation>
            <numerusform>%n Seite im Druck</numerusform>
            <numerusform>%n Seiten im Druck</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>no file name given; accepted formats: %1</source>
        <translation>kein Dateiname angegeben; mögliche Formate: %1</translation>
    </message>
    <message>
        <source>Export report</source>
        <translation>Bericht exportieren</translation>
    </message>
</context>
<context>
    <name>ui::Format</name>
    <message>
        <source>%1%</source>
        <extracomment>A percentage; %1 is the number with its decimals (&quot;91.8&quot;). German puts a space before the sign.</extracomment>
        <translation>%1&#xa0;%</translation>
    </message>
    <message>
        <source>Clear</source>
        <extracomment>Hesitation class of a result: the model is sure.</extracomment>
        <translation>Eindeutig</translation>
    </message>
    <message>
        <source>Somewhat unsure</source>
        <translation>Etwas unsicher</translation>
    </message>
    <message>
        <source>Very unsure</source>
        <translation>Sehr unsicher</translation>
    </message>
</context>
<context>
    <name>ui::GenerationStepsModel</name>
    <message>
        <source>pass %1 · %2</source>
        <translation>Durchlauf %1 · %2</translation>
    </message>
</context>
<context>
    <name>ui::HistoryModel</name>
    <message>
        <source>%1 on %2, total %3</source>
        <translation>%1 auf %2, gesamt %3</translation>
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
%2, %3×%4 Pixel, %5 KiB</translation>
    </message>
    <message>
        <source>image %1: %2</source>
        <translation>Bild %1: %2</translation>
    </message>
    <message>
        <source>%1: a decision takes at most %2 images</source>
        <translation>%1: Eine Entscheidung nimmt höchstens %2 Bilder</translation>
    </message>
    <message>
        <source>%1: the pasted picture could not be encoded</source>
        <translation>%1: Das eingefügte Bild konnte nicht kodiert werden</translation>
    </message>
</context>
<context>
    <name>ui::ImagesPanel</name>
    <message>
        <source>&amp;Images</source>
        <translation>&amp;Bilder</translation>
    </message>
    <message>
        <source>Images</source>
        <translation>Bilder</translation>
    </message>
    <message>
        <source>Drop image files here, paste one (Ctrl+V) or use Add…; PNG, JPEG or WebP. They are sent before the state, in this order.</source>
        <translation>Bilddateien hier ablegen, eines einfügen (Strg+V) oder „Hinzufügen…“ verwenden; PNG, JPEG oder WebP. Sie werden vor dem Zustand gesendet, in dieser Reihenfolge.</translation>
    </message>
    <message>
        <source>Add image…</source>
        <translation>Bild hinzufügen…</translation>
    </message>
    <message>
        <source>Remove image</source>
        <translation>Bild entfernen</translation>
    </message>
    <message>
        <source>Add images</source>
        <translation>Bilder hinzufügen</translation>
    </message>
    <message>
        <source>Images (*.png *.jpg *.jpeg *.webp)</source>
        <translation>Bilder (*.png *.jpg *.jpeg *.webp)</translation>
    </message>
    <message>
        <source>pasted image</source>
        <translation>eingefügtes Bild</translation>
    </message>
    <message>
        <source>Nothing to add: drop or paste image files, a picture or a URL</source>
        <translation>Nichts hinzuzufügen: Bilddateien, ein Bild oder eine URL ablegen oder einfügen</translation>
    </message>
</context>
<context>
    <name>ui::LinesDelegate</name>
    <message>
        <source>One alternative per line: name: description</source>
        <translation>Eine Alternative pro Zeile: Name: Beschreibung</translation>
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
        <translation>%1 neu geladen: Die Datei wurde auf der Festplatte geändert.</translation>
    </message>
    <message>
        <source>%1 changed on disk, and you have unsaved edits.</source>
        <translation>%1 wurde auf der Festplatte geändert, und Sie haben ungespeicherte Änderungen.</translation>
    </message>
    <message>
        <source>&amp;Policies</source>
        <translation>&amp;Richtlinien</translation>
    </message>
    <message>
        <source>Reload from disk</source>
        <translation>Von der Festplatte neu laden</translation>
    </message>
    <message>
        <source>Keep my edits</source>
        <translation>Meine Änderungen behalten</translation>
    </message>
    <message>
        <source>&amp;Variables</source>
        <translation>&amp;Variablen</translation>
    </message>
    <message>
        <source>&amp;Results</source>
        <translation>&amp;Ergebnisse</translation>
    </message>
    <message>
        <source>Ca&amp;nvas</source>
        <translation>Ca&amp;nvas</translation>
    </message>
    <message>
        <source>The active endpoint (Ctrl+E to change)</source>
        <translation>Der aktive Endpunkt (Strg+E zum Ändern)</translation>
    </message>
    <message>
        <source>&amp;Policy</source>
        <translation>&amp;Richtlinie</translation>
    </message>
    <message>
        <source>&amp;New…</source>
        <translation>&amp;Neu…</translation>
    </message>
    <message>
        <source>New policy</source>
        <translation>Neue Richtlinie</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>Name:</translation>
    </message>
    <message>
        <source>&amp;Duplicate…</source>
        <translation>&amp;Duplizieren…</translation>
    </message>
    <message>
        <source>Duplicate policy</source>
        <translation>Richtlinie duplizieren</translation>
    </message>
    <message>
        <source>Name of the copy:</source>
        <translation>Name der Kopie:</translation>
    </message>
    <message>
        <source>&amp;Rename…</source>
        <translation>&amp;Umbenennen…</translation>
    </message>
    <message>
        <source>Rename policy</source>
        <translation>Richtlinie umbenennen</translation>
    </message>
    <message>
        <source>New name:</source>
        <translation>Neuer Name:</translation>
    </message>
    <message>
        <source>De&amp;lete</source>
        <translation>&amp;Löschen</translation>
    </message>
    <message>
        <source>Delete policy</source>
        <translation>Richtlinie löschen</translation>
    </message>
    <message>
        <source>Delete %1 from your policy folder?</source>
        <translation>%1 aus Ihrem Richtlinienordner löschen?</translation>
    </message>
    <message>
        <source>&amp;Import…</source>
        <translation>&amp;Importieren…</translation>
    </message>
    <message>
        <source>Import policy</source>
        <translation>Richtlinie importieren</translation>
    </message>
    <message>
        <source>Policy templates (*.json.tmpl)</source>
        <translation>Richtlinienvorlagen (*.json.tmpl)</translation>
    </message>
    <message>
        <source>E&amp;xport…</source>
        <translation>E&amp;xportieren…</translation>
    </message>
    <message>
        <source>Export policy</source>
        <translation>Richtlinie exportieren</translation>
    </message>
    <message>
        <source>Export re&amp;port…</source>
        <translation>Be&amp;richt exportieren…</translation>
    </message>
    <message>
        <source>The latest decision as a report to hand on: HTML, PDF, CSV or JSON, with a preview</source>
        <translation>Die letzte Entscheidung als Bericht zum Weitergeben: HTML, PDF, CSV oder JSON, mit Vorschau</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>&amp;Speichern</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>&amp;Bearbeiten</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>&amp;Rückgängig</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>&amp;Wiederholen</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>A&amp;usführen</translation>
    </message>
    <message>
        <source>&amp;Run decision</source>
        <translation>Entscheidung &amp;ausführen</translation>
    </message>
    <message>
        <source>Compare slot vs &amp;generative</source>
        <translation>Slot vs. &amp;generativ vergleichen</translation>
    </message>
    <message>
        <source>Answer the policy both ways on the active endpoint: the slot readout (one pass) and generative JSON, side by side</source>
        <translation>Die Richtlinie am aktiven Endpunkt auf beide Arten beantworten: Slot-Auslesung (ein Durchlauf) und generatives JSON, nebeneinander</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>Abb&amp;rechen</translation>
    </message>
    <message>
        <source>Copy results as &amp;JSON</source>
        <translation>Ergebnisse als &amp;JSON kopieren</translation>
    </message>
    <message>
        <source>&amp;Endpoints…</source>
        <translation>&amp;Endpunkte…</translation>
    </message>
    <message>
        <source>&amp;Bench…</source>
        <translation>Ben&amp;ch…</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>Policies</source>
        <translation>Richtlinien</translation>
    </message>
    <message>
        <source>Form</source>
        <translation>Formular</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Quelltext</translation>
    </message>
    <message>
        <source>Variables</source>
        <translation>Variablen</translation>
    </message>
    <message>
        <source>Results</source>
        <translation>Ergebnisse</translation>
    </message>
    <message>
        <source>Canvas</source>
        <translation>Canvas</translation>
    </message>
    <message>
        <source>Main</source>
        <translation>Hauptleiste</translation>
    </message>
    <message>
        <source>No endpoint</source>
        <translation>Kein Endpunkt</translation>
    </message>
    <message>
        <source>%1: not a JSON object of variables; starting with none</source>
        <translation>%1: kein JSON-Objekt mit Variablen; es wird ohne Variablen begonnen</translation>
    </message>
    <message>
        <source>Save policy</source>
        <translation>Richtlinie speichern</translation>
    </message>
    <message>
        <source>Save this policy as:</source>
        <translation>Diese Richtlinie speichern als:</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Speichern</translation>
    </message>
    <message>
        <source>Save a copy</source>
        <translation>Eine Kopie speichern</translation>
    </message>
    <message>
        <source>Shipped policies are read-only. Save your edits as:</source>
        <translation>Mitgelieferte Richtlinien sind schreibgeschützt. Speichern Sie Ihre Änderungen als:</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>%1 gespeichert</translation>
    </message>
    <message>
        <source>Unsaved edits</source>
        <translation>Ungespeicherte Änderungen</translation>
    </message>
    <message>
        <source>Save your edits to %1?</source>
        <translation>Ihre Änderungen an %1 speichern?</translation>
    </message>
    <message>
        <source>%1%2 — Decision Studio</source>
        <translation>%1%2 — Decision Studio</translation>
    </message>
    <message>
        <source>The policy does not render: %1</source>
        <translation>Die Richtlinie lässt sich nicht rendern: %1</translation>
    </message>
    <message>
        <source>No endpoint: add one in Endpoints (Ctrl+E).</source>
        <translation>Kein Endpunkt: Fügen Sie unter „Endpunkte“ einen hinzu (Strg+E).</translation>
    </message>
    <message>
        <source>Connecting</source>
        <translation>Verbindung wird hergestellt</translation>
    </message>
    <message>
        <source>Starting</source>
        <translation>Wird gestartet</translation>
    </message>
    <message>
        <source>No backend for the active endpoint.</source>
        <translation>Kein Backend für den aktiven Endpunkt.</translation>
    </message>
    <message>
        <source>No result to export yet: run the policy first (Ctrl+Return).</source>
        <translation>Noch kein Ergebnis zum Exportieren: Führen Sie zuerst die Richtlinie aus (Strg+Eingabe).</translation>
    </message>
    <message>
        <source>Report written to %1</source>
        <translation>Bericht geschrieben nach %1</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>Abgebrochen.</translation>
    </message>
    <message>
        <source>Model loading progress</source>
        <translation>Fortschritt beim Laden des Modells</translation>
    </message>
    <message>
        <source>Cancel loading</source>
        <translation>Laden abbrechen</translation>
    </message>
    <message>
        <source>Waiting for the model: %1</source>
        <translation>Warten auf das Modell: %1</translation>
    </message>
    <message>
        <source>The run starts as soon as the model is loaded (Esc cancels)</source>
        <translation>Der Lauf beginnt, sobald das Modell geladen ist (Esc bricht ab)</translation>
    </message>
    <message>
        <source>The model is loading (%1); a run now starts as soon as it is ready</source>
        <translation>Das Modell wird geladen (%1); ein Lauf beginnt jetzt, sobald es bereit ist</translation>
    </message>
    <message>
        <source>Read every question in one pass (Ctrl+Return)</source>
        <translation>Alle Fragen in einem Durchlauf lesen (Strg+Eingabe)</translation>
    </message>
    <message>
        <source>Loading the model</source>
        <translation>Modell wird geladen</translation>
    </message>
    <message>
        <source>reading the weights</source>
        <translation>Gewichte werden gelesen</translation>
    </message>
    <message>
        <source>binding the weights</source>
        <translation>Gewichte werden gebunden</translation>
    </message>
    <message>
        <source>warming up</source>
        <translation>Aufwärmen</translation>
    </message>
    <message>
        <source>connecting</source>
        <translation>Verbindung wird hergestellt</translation>
    </message>
    <message>
        <source>%1 %2%</source>
        <translation>%1 %2&#xa0;%</translation>
    </message>
    <message>
        <source>Loading the model: %1</source>
        <translation>Modell wird geladen: %1</translation>
    </message>
    <message>
        <source>Connecting…</source>
        <translation>Verbindung wird hergestellt…</translation>
    </message>
    <message>
        <source>Model loading cancelled; the next run loads it.</source>
        <translation>Laden des Modells abgebrochen; der nächste Lauf lädt es.</translation>
    </message>
    <message>
        <source>The model did not load: %1</source>
        <translation>Das Modell wurde nicht geladen: %1</translation>
    </message>
    <message>
        <source>Ready: %1</source>
        <translation>Bereit: %1</translation>
    </message>
    <message>
        <source>Data — Decision Studio</source>
        <translation>Daten — Decision Studio</translation>
    </message>
    <message>
        <source>&amp;Data…</source>
        <translation>&amp;Daten…</translation>
    </message>
    <message>
        <source>Models — Decision Studio</source>
        <translation>Modelle — Decision Studio</translation>
    </message>
    <message>
        <source>&amp;Models…</source>
        <translation>&amp;Modelle…</translation>
    </message>
    <message>
        <source>the bench run %1</source>
        <translation>dem Bench-Lauf %1</translation>
    </message>
    <message>
        <source>the dataset run %1</source>
        <translation>dem Datensatz-Lauf %1</translation>
    </message>
    <message>
        <source>Calibrate: %1</source>
        <translation>Kalibrieren: %1</translation>
    </message>
    <message>
        <source>Calibrate: %1 has no labelled questions (an expected answer the run answered)</source>
        <translation>Kalibrieren: %1 hat keine beschrifteten Fragen (eine erwartete Antwort, die der Lauf beantwortet hat)</translation>
    </message>
    <message>
        <source>The fitted temperature was written into %1 (Undo takes it back)</source>
        <translation>Die angepasste Temperatur wurde in %1 geschrieben (Rückgängig nimmt sie zurück)</translation>
    </message>
    <message>
        <source>cascade_mode on_miss escalates the questions a labelled run missed, and a single decision has no expected answers: use entropy here, on_miss in a Bench or Data run.</source>
        <translation>cascade_mode on_miss eskaliert die Fragen, die ein Lauf mit Labels verfehlt hat, und eine einzelne Entscheidung hat keine erwarteten Antworten: Verwenden Sie hier entropy, on_miss in einem Bench- oder Daten-Lauf.</translation>
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
        <translation>vollständig</translation>
    </message>
    <message>
        <source>incomplete</source>
        <translation>unvollständig</translation>
    </message>
    <message>
        <source>not DiffusionGemma</source>
        <translation>kein DiffusionGemma</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>Dateien</translation>
    </message>
    <message>
        <source>Format</source>
        <translation>Format</translation>
    </message>
    <message>
        <source>On disk</source>
        <translation>Auf der Platte</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>Speicher</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>Ordner</translation>
    </message>
    <message>
        <source>&amp;Add folder…</source>
        <translation>Ordner &amp;hinzufügen…</translation>
    </message>
    <message>
        <source>&amp;Remove folder</source>
        <translation>Ordner &amp;entfernen</translation>
    </message>
    <message>
        <source>Re&amp;fresh</source>
        <translation>&amp;Aktualisieren</translation>
    </message>
    <message>
        <source>&amp;Use for profile</source>
        <translation>Für Profil &amp;verwenden</translation>
    </message>
    <message>
        <source>Add a models folder</source>
        <translation>Einen Modellordner hinzufügen</translation>
    </message>
    <message>
        <source>This machine: %1 of host memory available</source>
        <translation>Dieser Rechner: %1 Hauptspeicher verfügbar</translation>
    </message>
    <message>
        <source> · %1: %2 free</source>
        <translation> · %1: %2 frei</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
    <message>
        <source>No models found. Add a folder that holds one.</source>
        <translation>Keine Modelle gefunden. Fügen Sie einen Ordner hinzu, der eines enthält.</translation>
    </message>
    <message>
        <source>Choose a model to see its details.</source>
        <translation>Wählen Sie ein Modell, um seine Einzelheiten zu sehen.</translation>
    </message>
    <message>
        <source>Memory plan: %1</source>
        <translation>Speicherplan: %1</translation>
    </message>
    <message>
        <source>On a GPU: %1</source>
        <translation>Auf einer GPU: %1</translation>
    </message>
    <message>
        <source>Cannot be used:</source>
        <translation>Nicht verwendbar:</translation>
    </message>
</context>
<context>
    <name>ui::PassStrip</name>
    <message numerus="yes">
        <source>%n pass(es)</source>
        <translation>
            <numerusform>%n Durchlauf</numerusform>
            <numerusform>%n Durchläufe</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ui::PolicyDocument</name>
    <message>
        <source>Edit source</source>
        <translation>Quelltext bearbeiten</translation>
    </message>
    <message>
        <source>Edit instructions</source>
        <translation>Anweisungen bearbeiten</translation>
    </message>
    <message>
        <source>the rendered policy is not valid JSON: %1</source>
        <translation>die gerenderte Richtlinie ist kein gültiges JSON: %1</translation>
    </message>
    <message>
        <source>the rendered policy must be an object {&quot;schema&quot;: {...}, &quot;state&quot;: {...}}</source>
        <translation>die gerenderte Richtlinie muss ein Objekt {&quot;schema&quot;: {...}, &quot;state&quot;: {...}} sein</translation>
    </message>
</context>
<context>
    <name>ui::PolicyForm</name>
    <message>
        <source>&amp;Instructions</source>
        <translation>&amp;Anweisungen</translation>
    </message>
    <message>
        <source>&amp;Questions</source>
        <translation>&amp;Fragen</translation>
    </message>
    <message>
        <source>&amp;Add</source>
        <translation>&amp;Hinzufügen</translation>
    </message>
    <message>
        <source>Yes/no question</source>
        <translation>Ja/Nein-Frage</translation>
    </message>
    <message>
        <source>Choice question</source>
        <translation>Auswahlfrage</translation>
    </message>
    <message>
        <source>Score question</source>
        <translation>Bewertungsfrage</translation>
    </message>
    <message>
        <source>&amp;Remove</source>
        <translation>Ent&amp;fernen</translation>
    </message>
    <message>
        <source>Move u&amp;p</source>
        <translation>Nach &amp;oben</translation>
    </message>
    <message>
        <source>Move the question up (Alt+Up)</source>
        <translation>Die Frage nach oben verschieben (Alt+Nach-oben)</translation>
    </message>
    <message>
        <source>Move do&amp;wn</source>
        <translation>Nach &amp;unten</translation>
    </message>
    <message>
        <source>Move the question down (Alt+Down)</source>
        <translation>Die Frage nach unten verschieben (Alt+Nach-unten)</translation>
    </message>
    <message>
        <source>The source has an error; fix it there to edit the form. %1</source>
        <translation>Der Quelltext enthält einen Fehler; beheben Sie ihn dort, um das Formular zu bearbeiten. %1</translation>
    </message>
    <message>
        <source>The questions are produced by template actions; edit them in the source.</source>
        <translation>Die Fragen werden durch Vorlagenaktionen erzeugt; bearbeiten Sie sie im Quelltext.</translation>
    </message>
    <message>
        <source>&amp;Import options…</source>
        <translation>Optionen &amp;importieren…</translation>
    </message>
    <message>
        <source>Replace the choice question&apos;s options with a CSV file&apos;s rows: the name in the first column, a description in the second (up to 255 options; more than 26 are read as a bracket tournament)</source>
        <translation>Ersetzt die Optionen der Auswahlfrage durch die Zeilen einer CSV-Datei: der Name in der ersten Spalte, eine Beschreibung in der zweiten (bis zu 255 Optionen; mehr als 26 werden als Turnier in Gruppen gelesen)</translation>
    </message>
    <message>
        <source>Import options</source>
        <translation>Optionen importieren</translation>
    </message>
    <message>
        <source>CSV files (*.csv *.tsv *.txt);;All files (*)</source>
        <translation>CSV-Dateien (*.csv *.tsv *.txt);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Select a choice question to import options into.</source>
        <translation>Wählen Sie eine Auswahlfrage, in die die Optionen importiert werden sollen.</translation>
    </message>
    <message>
        <source>&amp;Temperature</source>
        <translation>&amp;Temperatur</translation>
    </message>
    <message>
        <source>1 (none)</source>
        <translation>1 (keine)</translation>
    </message>
    <message>
        <source>Stage-2 &amp;cascade</source>
        <translation>Stufe-2-&amp;Kaskade</translation>
    </message>
    <message>
        <source>off</source>
        <translation>aus</translation>
    </message>
    <message>
        <source>entropy</source>
        <translation>Entropie</translation>
    </message>
    <message>
        <source>on miss</source>
        <translation>bei Fehler</translation>
    </message>
    <message>
        <source> nats</source>
        <translation> nats</translation>
    </message>
    <message>
        <source>Questions whose entropy reaches this go to the stage-2 judge (ln 2 = 0.693 is a coin flip).</source>
        <translation>Fragen, deren Entropie diesen Wert erreicht, gehen an den Stufe-2-Richter (ln 2 = 0,693 ist ein Münzwurf).</translation>
    </message>
    <message>
        <source>Temperature: %1 is neither a number nor a JSON object</source>
        <translation>Temperatur: %1 ist weder eine Zahl noch ein JSON-Objekt</translation>
    </message>
    <message>
        <source>Edit temperature</source>
        <translation>Temperatur bearbeiten</translation>
    </message>
    <message>
        <source>Edit cascade mode</source>
        <translation>Kaskadenmodus bearbeiten</translation>
    </message>
    <message>
        <source>Edit cascade threshold</source>
        <translation>Kaskadenschwelle bearbeiten</translation>
    </message>
    <message>
        <source>Divides every read&apos;s label log-probabilities before the softmax: above 1 flattens overconfident answers. One number, or one per question type as {&quot;noul&quot;: T, &quot;choice&quot;: T, &quot;score&quot;: T}, with one per question as &quot;questions&quot;: {&quot;id&quot;: T}. Fit it with Calibrate… in the Bench or Data view, or dgem calibrate.</source>
        <translation>Teilt die Label-Log-Wahrscheinlichkeiten jedes Lesevorgangs vor dem Softmax: über 1 glättet zu selbstsichere Antworten. Eine Zahl oder eine je Fragetyp als {&quot;noul&quot;: T, &quot;choice&quot;: T, &quot;score&quot;: T}, mit einer je Frage als &quot;questions&quot;: {&quot;id&quot;: T}. Anpassen mit Kalibrieren… in der Bench- oder Datenansicht oder mit dgem calibrate.</translation>
    </message>
    <message>
        <source>temperature.questions names the unknown question &quot;%1&quot;; the policy&apos;s questions: %2</source>
        <translation>temperature.questions nennt die unbekannte Frage „%1“; die Fragen der Richtlinie: %2</translation>
    </message>
</context>
<context>
    <name>ui::PolicyLibrary</name>
    <message>
        <source>%1 (shipped, read-only: duplicate it to edit)</source>
        <translation>%1 (mitgeliefert, schreibgeschützt: zum Bearbeiten duplizieren)</translation>
    </message>
    <message>
        <source>cannot read: %1</source>
        <translation>kann nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>shipped policies are read-only; duplicate it</source>
        <translation>mitgelieferte Richtlinien sind schreibgeschützt; duplizieren Sie sie</translation>
    </message>
    <message>
        <source>cannot write: %1</source>
        <translation>kann nicht geschrieben werden: %1</translation>
    </message>
    <message>
        <source>a policy name uses letters, digits, _ - . and spaces</source>
        <translation>ein Richtlinienname besteht aus Buchstaben, Ziffern, _ - . und Leerzeichen</translation>
    </message>
    <message>
        <source>already exists</source>
        <translation>existiert bereits</translation>
    </message>
    <message>
        <source>duplicate: no policy selected</source>
        <translation>duplizieren: keine Richtlinie ausgewählt</translation>
    </message>
    <message>
        <source>cannot copy %1</source>
        <translation>%1 kann nicht kopiert werden</translation>
    </message>
    <message>
        <source>rename: no policy selected</source>
        <translation>umbenennen: keine Richtlinie ausgewählt</translation>
    </message>
    <message>
        <source>shipped policies cannot be renamed</source>
        <translation>mitgelieferte Richtlinien können nicht umbenannt werden</translation>
    </message>
    <message>
        <source>cannot rename</source>
        <translation>kann nicht umbenannt werden</translation>
    </message>
    <message>
        <source>delete: no policy selected</source>
        <translation>löschen: keine Richtlinie ausgewählt</translation>
    </message>
    <message>
        <source>shipped policies cannot be deleted</source>
        <translation>mitgelieferte Richtlinien können nicht gelöscht werden</translation>
    </message>
    <message>
        <source>cannot delete</source>
        <translation>kann nicht gelöscht werden</translation>
    </message>
    <message>
        <source>a policy file ends in .json.tmpl</source>
        <translation>eine Richtliniendatei endet auf .json.tmpl</translation>
    </message>
    <message>
        <source>cannot read</source>
        <translation>kann nicht gelesen werden</translation>
    </message>
    <message>
        <source>export: no policy selected</source>
        <translation>exportieren: keine Richtlinie ausgewählt</translation>
    </message>
    <message>
        <source>cannot write</source>
        <translation>kann nicht geschrieben werden</translation>
    </message>
</context>
<context>
    <name>ui::QuestionTableModel</name>
    <message>
        <source>yes/no</source>
        <translation>ja/nein</translation>
    </message>
    <message>
        <source>choice</source>
        <translation>Auswahl</translation>
    </message>
    <message>
        <source>score</source>
        <translation>Bewertung</translation>
    </message>
    <message>
        <source>Read this question alone</source>
        <translation>Diese Frage allein lesen</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <source>Instructions</source>
        <translation>Anweisungen</translation>
    </message>
    <message>
        <source>Alone</source>
        <translation>Allein</translation>
    </message>
    <message>
        <source>Set “%1” alone</source>
        <translation>„%1“ allein lesen</translation>
    </message>
    <message>
        <source>Rename question “%1”</source>
        <translation>Frage „%1“ umbenennen</translation>
    </message>
    <message>
        <source>Change type of “%1”</source>
        <translation>Typ von „%1“ ändern</translation>
    </message>
    <message>
        <source>Edit instructions of “%1”</source>
        <translation>Anweisungen von „%1“ bearbeiten</translation>
    </message>
    <message>
        <source>Edit alternatives of “%1”</source>
        <translation>Alternativen von „%1“ bearbeiten</translation>
    </message>
    <message>
        <source>Add question “%1”</source>
        <translation>Frage „%1“ hinzufügen</translation>
    </message>
    <message>
        <source>Remove question “%1”</source>
        <translation>Frage „%1“ entfernen</translation>
    </message>
    <message>
        <source>Move question “%1”</source>
        <translation>Frage „%1“ verschieben</translation>
    </message>
    <message>
        <source>A choice&apos;s options, a score&apos;s levels, a yes/no question&apos;s criteria</source>
        <translation>Die Optionen einer Auswahlfrage, die Stufen einer Bewertungsfrage, die Kriterien einer Ja/Nein-Frage</translation>
    </message>
    <message>
        <source>Options</source>
        <translation>Optionen</translation>
    </message>
    <message numerus="yes">
        <source>Import %n option(s) into “%1”</source>
        <translation>
            <numerusform>%n Option in „%1“ importieren</numerusform>
            <numerusform>%n Optionen in „%1“ importieren</numerusform>
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
        <translation>→ übersprungen</translation>
    </message>
    <message>
        <source>confidence %1</source>
        <translation>Konfidenz %1</translation>
    </message>
    <message>
        <source>entropy %1 nats</source>
        <translation>Entropie %1 nats</translation>
    </message>
    <message>
        <source>hesitation %1</source>
        <translation>Zögern %1</translation>
    </message>
    <message>
        <source>±%1 (stderr)</source>
        <translation>±%1 (Standardfehler)</translation>
    </message>
    <message>
        <source>Draws</source>
        <translation>Ziehungen</translation>
    </message>
    <message numerus="yes">
        <source>agreement %1 of %n draw(s)</source>
        <translation>
            <numerusform>Übereinstimmung %1 von %n Ziehung</numerusform>
            <numerusform>Übereinstimmung %1 von %n Ziehungen</numerusform>
        </translation>
    </message>
    <message>
        <source>%1, %2 percent, plus or minus %3</source>
        <translation>%1, %2 Prozent, plus oder minus %3</translation>
    </message>
    <message>
        <source>%1, %2 percent</source>
        <translation>%1, %2 Prozent</translation>
    </message>
    <message>
        <source>%1: skipped, %2</source>
        <translation>%1: übersprungen, %2</translation>
    </message>
    <message>
        <source>%1: %2, %3 percent, %4</source>
        <translation>%1: %2, %3 Prozent, %4</translation>
    </message>
    <message numerus="yes">
        <source>the noise draws agree %1 percent of %n draw(s)</source>
        <translation>
            <numerusform>die Rausch-Ziehung stimmt zu %1 Prozent überein (%n Ziehung)</numerusform>
            <numerusform>die Rausch-Ziehungen stimmen zu %1 Prozent überein (%n Ziehungen)</numerusform>
        </translation>
    </message>
    <message>
        <source>Draw %1: %2</source>
        <translation>Ziehung %1: %2</translation>
    </message>
    <message>
        <source>%1 %2: %3</source>
        <translation>%1 %2: %3</translation>
    </message>
    <message>
        <source>%1 (label %2): mean %3</source>
        <translation>%1 (Label %2): Mittelwert %3</translation>
    </message>
    <message numerus="yes">
        <source>and %n more…</source>
        <translation>
            <numerusform>und %n weitere…</numerusform>
            <numerusform>und %n weitere…</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ui::ResultsModel</name>
    <message>
        <source>%1: skipped</source>
        <translation>%1: übersprungen</translation>
    </message>
    <message>
        <source>stage 1 said %1 (%2)</source>
        <translation>Stufe 1 sagte %1 (%2)</translation>
    </message>
    <message>
        <source>Escalated (entropy %1 nats)</source>
        <translation>Eskaliert (Entropie %1 nats)</translation>
    </message>
    <message>
        <source>%1: stage 2 answered %2 in %3; %4</source>
        <translation>%1: Stufe 2 antwortete %2 in %3; %4</translation>
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
        <translation>Als JSON &amp;kopieren</translation>
    </message>
    <message>
        <source>Run the policy (Ctrl+Return) to see one card per question.</source>
        <translation>Führen Sie die Richtlinie aus (Strg+Eingabe), um für jede Frage eine Karte zu sehen.</translation>
    </message>
    <message>
        <source>Thought</source>
        <translation>Gedanke</translation>
    </message>
    <message>
        <source>Show or hide the last runs (Alt+H)</source>
        <translation>Die letzten Läufe ein- oder ausblenden (Alt+H)</translation>
    </message>
    <message>
        <source>History</source>
        <translation>Verlauf</translation>
    </message>
    <message>
        <source>&amp;History (%1)</source>
        <translation>&amp;Verlauf (%1)</translation>
    </message>
    <message numerus="yes">
        <source>Thought (%n token(s))</source>
        <translation>
            <numerusform>Gedanke (%n Token)</numerusform>
            <numerusform>Gedanke (%n Tokens)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Thought (%n token(s), budget used up)</source>
        <translation>
            <numerusform>Gedanke (%n Token, Budget ausgeschöpft)</numerusform>
            <numerusform>Gedanke (%n Tokens, Budget ausgeschöpft)</numerusform>
        </translation>
    </message>
    <message>
        <source>Encode %1 · decode %2 · readout %3</source>
        <translation>Kodieren %1 · Dekodieren %2 · Auslesen %3</translation>
    </message>
    <message>
        <source> · network %1</source>
        <translation> · Netzwerk %1</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message numerus="yes">
        <source>  —  %n stage(s), %1 decoder passes: </source>
        <translation>
            <numerusform>  —  %n Stufe, %1 Decoder-Durchläufe: </numerusform>
            <numerusform>  —  %n Stufen, %1 Decoder-Durchläufe: </numerusform>
        </translation>
    </message>
    <message>
        <source>Running…</source>
        <translation>Läuft…</translation>
    </message>
    <message>
        <source>%1 prompt tokens (%2 cached)</source>
        <translation>%1 Prompt-Tokens (%2 aus dem Cache)</translation>
    </message>
    <message>
        <source>%1 prompt tokens</source>
        <translation>%1 Prompt-Tokens</translation>
    </message>
    <message>
        <source> · total %1  —  %2 read(s) × %3 sample(s), %4, %5</source>
        <translation> · gesamt %1  —  %2 Lesung(en) × %3 Stichprobe(n), %4, %5</translation>
    </message>
</context>
<context>
    <name>ui::SourceEditor</name>
    <message numerus="yes">
        <source>Valid: renders to a schema with %n question(s).</source>
        <translation>
            <numerusform>Gültig: ergibt ein Schema mit %n Frage.</numerusform>
            <numerusform>Gültig: ergibt ein Schema mit %n Fragen.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ui::TokenFlow</name>
    <message>
        <source>position %1 · id %2 · “%3”</source>
        <translation>Position %1 · ID %2 · „%3“</translation>
    </message>
    <message>
        <source>
answer slot of “%1”: %2
this draw&apos;s noise token is id %3</source>
        <translation>
Antwort-Slot von „%1“: %2
Das Rausch-Token dieser Ziehung hat die ID %3</translation>
    </message>
    <message>
        <source>answer slot of %1: %2</source>
        <translation>Antwort-Slot von %1: %2</translation>
    </message>
    <message>
        <source> or </source>
        <comment>between the labels of a slot</comment>
        <translation> oder </translation>
    </message>
    <message>
        <source>padding, position %1</source>
        <translation>Auffüllung, Position %1</translation>
    </message>
    <message>
        <source>special token %1, position %2</source>
        <translation>Sondertoken %1, Position %2</translation>
    </message>
    <message>
        <source>token “%1”, position %2</source>
        <translation>Token „%1“, Position %2</translation>
    </message>
    <message numerus="yes">
        <source>%1
%n soft token(s) the vision tower reads from it, at position %2</source>
        <translation>
            <numerusform>%1
%n Soft-Token, das der Vision-Tower daraus liest, an Position %2</numerusform>
            <numerusform>%1
%n Soft-Tokens, die der Vision-Tower daraus liest, an Position %2</numerusform>
        </translation>
    </message>
    <message>
        <source>%1
sent as a data: URI; the model that reads it places its soft tokens here</source>
        <translation>%1
als data:-URI gesendet; das lesende Modell setzt hier seine Soft-Tokens ein</translation>
    </message>
</context>
<context>
    <name>ui::UndoRoutingEdit</name>
    <message>
        <source>&amp;Undo</source>
        <translation>&amp;Rückgängig</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>&amp;Wiederholen</translation>
    </message>
</context>
<context>
    <name>ui::VariablesModel</name>
    <message>
        <source>The template does not read this variable</source>
        <translation>Die Vorlage liest diese Variable nicht</translation>
    </message>
    <message>
        <source>A run setting the template reads</source>
        <translation>Eine Laufeinstellung, die die Vorlage liest</translation>
    </message>
    <message>
        <source>An input the template reads</source>
        <translation>Eine Eingabe, die die Vorlage liest</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>Text</translation>
    </message>
    <message>
        <source>JSON value: %1</source>
        <translation>JSON-Wert: %1</translation>
    </message>
    <message>
        <source>Variable</source>
        <translation>Variable</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
</context>
<context>
    <name>ui::VariablesPanel</name>
    <message>
        <source>Variables</source>
        <translation>Variablen</translation>
    </message>
    <message>
        <source>Add variable…</source>
        <translation>Variable hinzufügen…</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <source>Reset to samples</source>
        <translation>Auf Beispielwerte zurücksetzen</translation>
    </message>
    <message>
        <source>The policy&apos;s sample values (&lt;name&gt;.vars.json)</source>
        <translation>Die Beispielwerte der Richtlinie (&lt;name&gt;.vars.json)</translation>
    </message>
    <message>
        <source>Add variable</source>
        <translation>Variable hinzufügen</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>Name:</translation>
    </message>
</context>
<context>
    <name>ui::WideOptionsDialog</name>
    <message>
        <source>%1: every option</source>
        <translation>%1: alle Optionen</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Rang</translation>
    </message>
    <message>
        <source>Option</source>
        <translation>Option</translation>
    </message>
    <message>
        <source>Label</source>
        <translation>Label</translation>
    </message>
    <message>
        <source>Probability</source>
        <translation>Wahrscheinlichkeit</translation>
    </message>
    <message>
        <source>± stderr</source>
        <translation>± Standardfehler</translation>
    </message>
    <message>
        <source>Search the %1 options</source>
        <translation>Die %1 Optionen durchsuchen</translation>
    </message>
</context>
</TS>
