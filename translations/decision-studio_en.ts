<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name>ui::BenchWindow</name>
    <message numerus="yes">
        <source>Showing %n item(s) of %1</source>
        <translation>
            <numerusform>Showing %n item of %1</numerusform>
            <numerusform>Showing %n items of %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ui::CalibrateDialog</name>
    <message numerus="yes">
        <source>Fits the temperature per question type on %n labelled question(s) of %1 by minimising the held-out negative log-likelihood of the expected answer (a proper scoring rule: it is lowest when the probabilities mean what they say; a temperature never changes an answer). The figures are measured on the held-out folds.</source>
        <translation>
            <numerusform>Fits the temperature per question type on %n labelled question of %1 by minimising the held-out negative log-likelihood of the expected answer (a proper scoring rule: it is lowest when the probabilities mean what they say; a temperature never changes an answer). The figures are measured on the held-out folds.</numerusform>
            <numerusform>Fits the temperature per question type on %n labelled questions of %1 by minimising the held-out negative log-likelihood of the expected answer (a proper scoring rule: it is lowest when the probabilities mean what they say; a temperature never changes an answer). The figures are measured on the held-out folds.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ui::CanvasModel</name>
    <message numerus="yes">
        <source>image %1 · %n token(s)</source>
        <translation>
            <numerusform>image %1 · %n token</numerusform>
            <numerusform>image %1 · %n tokens</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> · the last %n group(s): the final over the last run&apos;s finalists</source>
        <translation>
            <numerusform> · the last %n group: the final over the last run&apos;s finalists</numerusform>
            <numerusform> · the last %n groups: the final over the last run&apos;s finalists</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ui::ChartWidget</name>
    <message numerus="yes">
        <source>%n item(s)</source>
        <translation>
            <numerusform>%n item</numerusform>
            <numerusform>%n items</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> and %n more</source>
        <translation>
            <numerusform> and %n more</numerusform>
            <numerusform> and %n more</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ui::CompareWindow</name>
    <message numerus="yes">
        <source>%n question(s) read in %1</source>
        <translation>
            <numerusform>%n question read in %1</numerusform>
            <numerusform>%n questions read in %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n question(s) · %1 · %2 decoder pass(es)</source>
        <translation>
            <numerusform>%n question · %1 · %2 decoder pass(es)</numerusform>
            <numerusform>%n questions · %1 · %2 decoder pass(es)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 · %n pass(es) · %2 completion tokens · finish: %3</source>
        <translation>
            <numerusform>%1 · %n pass · %2 completion tokens · finish: %3</numerusform>
            <numerusform>%1 · %n passes · %2 completion tokens · finish: %3</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Done: %n denoising pass(es)</source>
        <translation>
            <numerusform>Done: %n denoising pass</numerusform>
            <numerusform>Done: %n denoising passes</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ui::DataWindow</name>
    <message numerus="yes">
        <source>Chosen in a chart: %1 (%n row(s))</source>
        <translation>
            <numerusform>Chosen in a chart: %1 (%n row)</numerusform>
            <numerusform>Chosen in a chart: %1 (%n rows)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ui::ExportReportDialog</name>
    <message numerus="yes">
        <source>%n line(s)</source>
        <translation>
            <numerusform>%n line</numerusform>
            <numerusform>%n lines</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n page(s)</source>
        <translation>
            <numerusform>%n page</numerusform>
            <numerusform>%n pages</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n page(s) when printed</source>
        <translation>
            <numerusform>%n page when printed</numerusform>
            <numerusform>%n pages when printed</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ui::PassStrip</name>
    <message numerus="yes">
        <source>%n pass(es)</source>
        <translation>
            <numerusform>%n pass</numerusform>
            <numerusform>%n passes</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ui::QuestionTableModel</name>
    <message numerus="yes">
        <source>Import %n option(s) into “%1”</source>
        <translation>
            <numerusform>Import %n option into “%1”</numerusform>
            <numerusform>Import %n options into “%1”</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ui::ResultCard</name>
    <message numerus="yes">
        <source>agreement %1 of %n draw(s)</source>
        <translation>
            <numerusform>agreement %1 of %n draw</numerusform>
            <numerusform>agreement %1 of %n draws</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>the noise draws agree %1 percent of %n draw(s)</source>
        <translation>
            <numerusform>the noise draws agree %1 percent of %n draw</numerusform>
            <numerusform>the noise draws agree %1 percent of %n draws</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>and %n more…</source>
        <translation>
            <numerusform>and %n more…</numerusform>
            <numerusform>and %n more…</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ui::ResultsView</name>
    <message numerus="yes">
        <source>Thought (%n token(s))</source>
        <translation>
            <numerusform>Thought (%n token)</numerusform>
            <numerusform>Thought (%n tokens)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Thought (%n token(s), budget used up)</source>
        <translation>
            <numerusform>Thought (%n token, budget used up)</numerusform>
            <numerusform>Thought (%n tokens, budget used up)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>  —  %n stage(s), %1 decoder passes: </source>
        <translation>
            <numerusform>  —  %n stage, %1 decoder passes: </numerusform>
            <numerusform>  —  %n stages, %1 decoder passes: </numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ui::SourceEditor</name>
    <message numerus="yes">
        <source>Valid: renders to a schema with %n question(s).</source>
        <translation>
            <numerusform>Valid: renders to a schema with %n question.</numerusform>
            <numerusform>Valid: renders to a schema with %n questions.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ui::TokenFlow</name>
    <message numerus="yes">
        <source>%1
%n soft token(s) the vision tower reads from it, at position %2</source>
        <translation>
            <numerusform>%1
%n soft token the vision tower reads from it, at position %2</numerusform>
            <numerusform>%1
%n soft tokens the vision tower reads from it, at position %2</numerusform>
        </translation>
    </message>
</context>
</TS>
