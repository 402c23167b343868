"""An external reward program for ``check-reward --cmd``: one JSON case per line in, ``{id, reward}`` out.

``python -m tests.reward_cmd_zoo [progexec|scale]``: progexec's own reward, or one that accepts
the answer at any of five scales (a false positive on every scale-guess form).
"""

from __future__ import annotations

import json
import sys

from progexec.reward import score_completion
from tests.reward_zoo import scale_guess_reward


def main(argv: list[str]) -> int:
    rule = argv[1] if len(argv) > 1 else "progexec"
    for line in sys.stdin:
        case = json.loads(line)
        if rule == "scale":
            reward = scale_guess_reward(case["completion"], case["gold"])
        else:
            reward = score_completion(case["completion"], case["gold"]).score
        sys.stdout.write(json.dumps({"id": case["id"], "reward": reward}) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
