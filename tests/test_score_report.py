"""score.md / score.html: the reviewed gold file, link targets, anchors, self-containment, byte-identical reruns.

The small data set (tests/data/score_small) has one item of each kind the official
script treats specially: the documented assert case (program-equal, execution-unequal:
the script would abort), a correct and a wrong prediction, a repeated id (counted twice,
as the official loop does), a gold item without a prediction and a prediction not in the gold.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from progexec.report import score_html, score_markdown
from progexec.report.score_report import write_score_report
from progexec.report.score_views import views
from progexec.score import load_gold, load_predictions, score_predictions

DATA = Path(__file__).parent / "data"
SMALL = DATA / "score_small"


def _inputs():  # type: ignore[no-untyped-def]
    gold = load_gold(str(SMALL / "gold.json"))
    predictions = load_predictions(str(SMALL / "pred.json"))
    return score_predictions(gold, predictions, ["all"], "gold.json", "pred.json"), gold, predictions


def test_markdown_matches_the_reviewed_gold_file() -> None:
    report, gold, predictions = _inputs()
    text = score_markdown.render(views(report, gold, predictions))
    assert text == (DATA / "golden" / "score_small.md").read_text(encoding="utf-8")


def test_html_links_land_on_item_rows_and_repeats_get_their_own_anchor() -> None:
    report, gold, predictions = _inputs()
    html = score_html.render(views(report, gold, predictions))
    ids = set(re.findall(r' id="([^"]+)"', html))
    targets = set(re.findall(r'href="#([^"]+)"', html))
    assert targets <= ids
    rows = re.findall(r'<tr id="(i-[^"]+)"', html)
    assert rows == ["i-abort", "i-right", "i-wrong", "i-twice", "i-twice-2"]  # the official loop's n = 5
    aborts = html[html.index('id="aborts-table"'):]
    assert 'href="#i-abort"' in aborts[:aborts.index("</table>")]
    disagreements = html[html.index('id="disagreements-table"'):]
    # the official scorer counts the reordered program equal; unitxt does not (invalid_structure)
    assert 'href="#i-abort"' in disagreements[:disagreements.index("</table>")]
    assert "not-in-gold" in html and "no-prediction" in html  # coverage lists both, never dropped


def test_html_is_self_contained() -> None:
    report, gold, predictions = _inputs()
    html = score_html.render(views(report, gold, predictions))
    assert "src=" not in html and "<link" not in html and "url(" not in html and "http" not in html
    assert html.count("<script>") == 1 and html.count("<style>") == 1


def test_write_score_report_twice_gives_identical_files(tmp_path: Path) -> None:
    report, gold, predictions = _inputs()
    first = write_score_report(report, gold, tmp_path / "a", predictions)
    second = write_score_report(report, gold, tmp_path / "b", predictions)
    assert [path.name for path in first] == ["score.md", "score.html"]
    assert [path.read_bytes() for path in first] == [path.read_bytes() for path in second]


def test_score_report_is_independent_of_hash_seed(tmp_path: Path) -> None:
    script = ("import sys; from pathlib import Path; from progexec.report.score_report import write_score_report; "
              "from progexec.score import load_gold, load_predictions, score_predictions; "
              f"g = load_gold({str(SMALL / 'gold.json')!r}); p = load_predictions({str(SMALL / 'pred.json')!r}); "
              "write_score_report(score_predictions(g, p, ['all'], 'g', 'p'), g, Path(sys.argv[1]), p)")
    outputs = []
    for seed in ("0", "31337"):
        out = tmp_path / seed
        subprocess.run([sys.executable, "-c", script, str(out)], check=True, capture_output=True,
                       env={**os.environ, "PYTHONHASHSEED": seed})
        outputs.append([(out / name).read_bytes() for name in ("score.md", "score.html")])
    assert outputs[0] == outputs[1]
