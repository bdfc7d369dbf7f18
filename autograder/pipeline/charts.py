"""The geometry of the cohort report's two plots, as plain numbers and strings.

The template (templates/cohort_report.html.j2) draws them as inline SVG: no
plotting library, no script, nothing fetched. Every length here is in SVG user
units; each plot's viewBox is (0, 0, width, height), so the browser scales it.
"""

import textwrap

FONT = 13  # px of a label
SMALL = 11  # px of a rule sentence
RULE_CHARS = 120  # a rule sentence wraps at this many characters


def histogram(bins, width=640, height=240):
    """Bars of a score histogram. ``bins``: [(low %, high %, count)], as cohort_report.distribution gives."""
    left, bottom, top = 36, 36, 16
    plot_w, plot_h = width - left - 8, height - bottom - top
    most = max([count for _low, _high, count in bins] + [1])
    slot = plot_w / max(len(bins), 1)
    bars = []
    for i, (low, high, count) in enumerate(bins):
        h = plot_h * count / most
        bars.append(
            {
                "x": round(left + i * slot + 2, 1),
                "y": round(top + plot_h - h, 1),
                "w": round(slot - 4, 1),
                "h": round(h, 1),
                "count": count,
                "label": f"{low}\u2013{high}%",
                "cx": round(left + (i + 0.5) * slot, 1),
            }
        )
    ticks = sorted({0, most} | ({most // 2} if most >= 4 else set()))
    return {
        "width": width,
        "height": height,
        "bars": bars,
        "base": top + plot_h,
        "left": left,
        "right": width - 8,
        "ticks": [{"y": round(top + plot_h - plot_h * t / most, 1), "value": t} for t in ticks],
        "label_y": top + plot_h + 16,
        "caption_y": height - 4,
    }


def pass_rates(rows, width=900):
    """Horizontal pass-rate bars, one per check, grouped under the rule sentence they enforce: each sentence once.

    ``rows``: [(check id, passed, tried, rule)] in the order to draw them (hardest first). The
    checks of one rule (the variants of a family) stand together under it, and the groups
    come in the order of their first check; a check without a rule stands alone.
    """
    label_w, bar_x, bar_w = 330, 340, 420
    groups = {}
    for row in rows:
        groups.setdefault(row[3] or ("", row[0]), []).append(row)
    y, drawn = 8, []
    for rule, members in groups.items():
        lines = textwrap.wrap(rule, RULE_CHARS) if isinstance(rule, str) else []
        said = []
        for k, line in enumerate(lines):
            said.append({"y": y + SMALL + k * (SMALL + 3), "text": line})
        y += len(lines) * (SMALL + 3) + (4 if lines else 0)
        bars = []
        for check_id, passed, tried, _rule in members:
            share = passed / tried if tried else 0.0
            bars.append(
                {
                    "id": check_id,
                    "passed": passed,
                    "tried": tried,
                    "share": share,
                    "low": share < 0.5,
                    "label_x": label_w,
                    "text_y": y + FONT,
                    "bar_x": bar_x,
                    "bar_y": y + 2,
                    "bar_h": FONT,
                    "bar_w": round(bar_w * share, 1),
                    "track_w": bar_w,
                    "count_x": bar_x + bar_w + 8,
                }
            )
            y += FONT + 6
        drawn.append({"rule": said, "rows": bars})
        y += 8
    return {"width": width, "height": y + 4, "groups": drawn, "font": FONT, "small": SMALL, "rule_x": 12}
