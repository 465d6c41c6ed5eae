"""What `explain` says about each kind of finding, in Chinese and in English.

Keyed by kind; each entry says what the check decides, why it matters in a game, how to fix
it and its limits. The analyses' docstrings stay the developers' English notes.
"""
from __future__ import annotations

PARTS = ("decides", "why", "fix", "limits")

HEADINGS = {
    "zh": {"decides": "判定什么", "why": "为什么重要", "fix": "如何修复", "limits": "局限",
           "severity": "默认严重度", "decides_by": "判定方式", "sep": "：", "open": "（", "close": "）", "list": "；"},
    "en": {"decides": "Decides", "why": "Why it matters", "fix": "How to fix", "limits": "Limits",
           "severity": "default severity", "decides_by": "decided by", "sep": ": ", "open": " (", "close": ")",
           "list": "; "},
}

DECIDES_BY = {
    "zh": {"text": "文本检查", "graph": "触发图", "smt": "求解器（z3）", "both": "触发图找候选，求解器确认"},
    "en": {"text": "text checks", "graph": "the trigger graph", "smt": "the solver (z3)",
           "both": "trigger graph for candidates, solver to confirm"},
}

SEVERITY = {"zh": {"error": "错误", "warning": "警告", "info": "提示"},
            "en": {"error": "error", "warning": "warning", "info": "info"}}

TEXTS: dict[str, dict[str, dict[str, str]]] = {
    "undefined-reference": {
        "zh": {"summary": "括号中的术语既未定义也未声明为外部术语",
               "decides": "原文用括号（【】 [] <> 〖〗）写出的术语，规则既没有定义它，也没有声明为外部术语。"
                          "例如技能写“若该角色不为【X】目标”，却没有任何东西叫 X。",
               "why": "对局中玩家会为这个词的含义争执。",
               "fix": "改成已定义的术语，或者给它下定义（或在 externals 中声明并写明假设）。",
               "limits": "只看 1–30 个字的术语。"},
        "en": {"summary": "a bracketed term that is neither defined nor declared external",
               "decides": "A term the source writes in brackets (【】 [] <> 〖〗) that the ruleset neither defines "
                          "nor declares as an external term. Example: a skill says \"若该角色不为【X】目标\" but "
                          "nothing is called X.",
               "why": "In a game, players argue about what it means.",
               "fix": "Rename it to the defined term, or define it (or declare it under externals with the "
                      "assumption you make).",
               "limits": "Terms of 1–30 characters."},
    },
    "inconsistent-text": {
        "zh": {"summary": "原文两处对同一元素的说法不一致",
               "decides": "原文两处对同一元素说法不同（编码把两种读法都记录在 readings 中）。"
                          "例如表格写“夜晚3”，疑问解答却写“夜晚2”。编码把两种说法写成歧义开关（switch）时，"
                          "与歧义一样在合法对局中比较两种说法的结果，并给出各自的结果。",
               "why": "法官和玩家各自引用不同的一处，裁定无法服众。",
               "fix": "让两处说法一致。",
               "limits": "只发现编码中记录了的读法。"},
        "en": {"summary": "two passages of the source disagree about one element",
               "decides": "Two passages of the source say different things about one element (the encoding "
                          "records both readings). Example: a table says 夜晚3 while the FAQ says 夜晚2. Where the "
                          "encoding makes the readings a switch, a legal game shows the outcome under each passage, "
                          "as for an ambiguity.",
               "why": "The judge and the players each quote a different passage; no ruling convinces everyone.",
               "fix": "Make the passages agree.",
               "limits": "Only the readings the encoding records."},
    },
    "ambiguity": {
        "zh": {"summary": "原文可以有多种理解，且不同理解导致不同结果",
               "decides": "编码把原文的一处歧义声明为开关（ambiguities：名称、行号、用原文措辞写出的各选项），"
                          "规则按 {reading: [歧义, 选项]} 取其一。对每处歧义，检查在合法对局中不同选项是否导致不同结果"
                          "（谁出局、转换、获胜、哪些技能能发动）：会，则给出各选项下的局面并生成疑问；不会，则证明无害，简单列出。",
               "why": "导演只能临场挑一种理解，玩家会觉得裁定偏向某一方。",
               "fix": "在原文中写明采用哪种理解；或在 rulings 中给出裁定（ambiguity/option），引擎此后处处采用。",
               "limits": "只比较引用该歧义的技能的一次使用；证明在玩家槽位的可达状态过近似上进行，实例来自界限内的对局。"},
        "en": {"summary": "the text can be read more than one way, and the readings lead to different outcomes",
               "decides": "The encoding declares an ambiguity of the text as a switch (ambiguities: a name, the lines, "
                          "the options in the text's words); rules choose by {reading: [ambiguity, option]}. For each "
                          "ambiguity it asks whether the options lead to different outcomes in legal games (who goes "
                          "out, converts, wins, which skills fire): if yes, the situation under each option and a "
                          "question; if no, it is proved harmless and listed briefly.",
               "why": "The judge has to pick a reading on the spot; players feel the ruling favours one side.",
               "fix": "Say in the text which reading holds, or record a ruling (ambiguity/option); the engine then "
                      "uses it everywhere.",
               "limits": "One use of a skill that reads the ambiguity is compared; proofs are over the reachable-state "
                         "over-approximation of the player slots, witnesses are games within the bounds."},
    },
    "assumption": {
        "zh": {"summary": "编码所依赖的假设（外部术语、外部身份、歧义的取舍）",
               "decides": "编码不得不作出的解释：来自我们没有的基础规则的外部术语、外部身份，"
                          "或编码对一处歧义的取舍。",
               "why": "依赖这个假设的其他问题，可靠程度只和这个假设一样。",
               "fix": "在规则正文中把这条规则写明。",
               "limits": "只列出编码中声明的假设。"},
        "en": {"summary": "an interpretation the encoding had to choose (external term, external role, ambiguity)",
               "decides": "An interpretation we had to choose: an external term from rules we do not have, an "
                          "external role, or an ambiguity resolved by the encoding.",
               "why": "Every other finding that relies on it is only as good as the assumption.",
               "fix": "State the rule in the text.",
               "limits": "Only the assumptions the encoding declares."},
    },
    "setup": {
        "zh": {"summary": "开局配置的数字不自洽",
               "decides": "在某个允许的人数下，配置算术不成立：各组人数之和不等于总人数，"
                          "或各情形的概率之和不是 100%（或小于 0%）。",
               "why": "法官无法按这样的配置发牌开局。",
               "fix": "修正数字或人数范围。",
               "limits": "判定为“已证明”时，对所述范围内的每个人数都成立（z3 覆盖整个范围）。"},
        "en": {"summary": "the setup arithmetic does not add up",
               "decides": "The composition arithmetic does not add up for some allowed player count: groups "
                          "that do not sum to the stated total, or case probabilities that do not sum to 100% "
                          "(or go below 0%).",
               "why": "A judge cannot deal such a game.",
               "fix": "Correct the numbers or the ranges.",
               "limits": "Verdict proved when it holds for every count (z3 over the stated range)."},
    },
    "faq-mismatch": {
        "zh": {"summary": "规则自带的疑问解答与规则正文矛盾",
               "decides": "规则自带的疑问解答（FAQ）中有与编码规则相矛盾的回答：FAQ 说某阶段只有一个技能"
                          "行动，而另一个技能的时机正是该阶段；或 FAQ 说某事不可能，而某个可达局面允许它。",
               "why": "玩家两处都会读，并因此争执。",
               "fix": "修正疑问解答或规则。",
               "limits": "只检查这些说法：某阶段仅限某些技能、技能时机、永远/总是/可能的条件。"},
        "en": {"summary": "the ruleset's own FAQ contradicts the rules",
               "decides": "An answer in the ruleset's own FAQ that the encoded rules contradict: the FAQ says "
                          "only one skill acts in a phase while another skill's timing is that phase, or it says "
                          "something is impossible that a reachable state allows.",
               "why": "Players read both and disagree.",
               "fix": "Correct the FAQ or the rule.",
               "limits": "Claims: only_skills_in_phase, skill_timing, never/always/possible conditions."},
    },
    "contradiction": {
        "zh": {"summary": "“必定发生”的效果与“无法发生”的状态/替代效果冲突且无优先规则",
               "decides": "在某个可达局面中，两条规则要求互不相容的结果，且没有优先规则裁决：标记为必定发生"
                          "（必定/无法被阻止）的效果作用于持有禁止这件事的状态的玩家，或被强制的替代效果阻止；"
                          "或强制指定的目标被某个[强制]技能自己的目标限制禁止（可不发动的技能此时只是无法发动，不报告）；"
                          "或某阵营的胜利条件与失败条件在合法对局中同时成立，而规则没有说明哪个优先。",
               "why": "法官必须临场决定哪条规则生效。",
               "fix": "写明哪条规则优先。",
               "limits": "一个效果对一个状态或一个替代效果；胜负条件只在界限内的对局中查找。"},
        "en": {"summary": "a certain effect meets a status or replacement that forbids it, with no precedence",
               "decides": "Two rules demand incompatible outcomes in a reachable situation and no precedence "
                          "rule decides: an effect marked as certain (必定/无法被阻止) on a player who holds a "
                          "status that forbids exactly that, or whose forced replacement effect prevents it; or a forced "
                          "target that a mandatory ([强制]) skill's own target rules forbid (an optional skill "
                          "then simply cannot be used, which is not reported); or a faction's win and lose "
                          "conditions hold at once in a legal game and the text does not say which counts.",
               "why": "The judge has to decide on the spot which rule applies.",
               "fix": "Say which rule wins.",
               "limits": "One effect against one status or one replacement; win and lose at once only in bounded games."},
    },
    "order-dependence": {
        "zh": {"summary": "同一时段内的两个效果结算顺序未定义，且顺序不同结果不同",
               "decides": "两个效果可能在同一时段内同时待结算，规则没有给出先后，而某个可达局面在两种顺序下"
                          "结局不同。例如两个触发都转化某个【指定】技能的发动者，而一名发动者在同一晚指定了两位持有者。",
               "why": "对局中法官必须选一个顺序，玩家会为此争执。",
               "fix": "写明哪个先结算（优先规则），或让两个效果可交换。",
               "limits": "逐对比较两个效果；同一时段中先结算的其他行动由对局历史给出（三个及以上的待结算行动，任意两种结算顺序的差别都出现在某一步相邻两个行动的交换上，因此逐对检查即覆盖所有顺序）；界限内的玩家槽位、一个时段。一个时段确认三对后即说明该时段缺少顺序规定，其余技能对只计数、不逐一检查。"},
        "en": {"summary": "two effects pending in one window with no order, and the order changes the outcome",
               "decides": "Two effects can be pending in one window, the ruleset gives no order between them, "
                          "and some reachable state ends differently under the two orders. Example: two "
                          "triggers that both convert the caster of a [指定] skill, when one caster targets both "
                          "owners in one night.",
               "why": "In a game the judge must pick an order, and players will dispute it.",
               "fix": "State which resolves first (a precedence rule), or make the effects commute.",
               "limits": "Pairs of effects, up to the player slots in the bounds, one window. Once three "
                         "pairs of one window are confirmed, the window's other pairs are counted, not asked."},
    },
    "loop": {
        "zh": {"summary": "触发效果可以无限互相触发",
               "decides": "触发可以无限地互相再次触发：效果 A 产生触发 B 所监听的事件，B 的效果又产生 A 的事件；"
                          "或一个令人立即使用技能的效果（use_skill）可以令人再次使用它自己。",
               "why": "对局走到这里，这一步永远结算不完。",
               "fix": "限制使用次数，或写明该触发每个时段只触发一次。",
               "limits": "除非有递减的度量（有限的使用次数、只会出局一次、目标必须持有而技能会去除的状态）证明它会终止，"
                         "否则都会报告；环中有技能撤销该度量时（突破[次数]、刷新技能、复活、免于出局）不算。"
                         "实例是一局合法对局：从合法发牌起，合法行动走到环完整转一轮（每个技能在前一个留下的局面中结算，最后回到第一个）；界限内走不到的环报告为“未知”（提示）；最多 4 个技能的环，转一轮后即视为会一直转下去。"},
        "en": {"summary": "triggers can re-fire each other without bound",
               "decides": "Triggers that can re-fire each other without bound: effect A produces the event that "
                          "trigger B listens for, and B's effect produces A's event again; or an effect that "
                          "makes someone use a skill at once (use_skill) can make them use itself again.",
               "why": "A game that reaches it never finishes the step.",
               "fix": "Limit uses, or say the trigger fires once per window.",
               "limits": "Reported unless a decreasing measure (limited uses, going out once, a status the "
                         "targets must hold and the skill removes) proves termination; a measure a member of the "
                         "cycle undoes (breaking use limits, refreshing, reviving, preventing the going out) does "
                         "not count. The witness is a legal game from a legal deal that goes round the cycle once (each "
                         "member resolving in the state the one before left, back to the first); a cycle no game "
                         "within the bounds goes round is an info unknown; cycles of up to 4 skills, taken to go "
                         "round for ever once they go round once."},
    },
    "impossible-win": {
        "zh": {"summary": "某阵营的胜利条件永远无法达成（已证明）",
               "decides": "某阵营的胜利条件，任何效果序列都无法使其成立。例如胜利需要每名玩家都持有某状态，"
                          "而该阵营自己的成员永远得不到这个状态。",
               "why": "对局中这个阵营的玩家不可能获胜，这个阵营形同虚设或具有误导性。",
               "fix": "改写胜利条件（例如改为“所有其他玩家”）。",
               "limits": "判定为“已证明”：某个不变式在开局后成立、每个效果都保持它，且它排除了这一胜利。"
                         "不变式只在玩家槽位上的简单候选事实中寻找。"},
        "en": {"summary": "a faction's win condition can never hold (proved)",
               "decides": "A faction whose win condition no sequence of effects can make true. Example: a win "
                          "that needs every player to hold a status the faction's own member can never get.",
               "why": "In a game its players cannot win and the faction is pointless or misleading.",
               "fix": "Restate the condition (e.g. \"all other players\").",
               "limits": "Verdict proved: an invariant holds after setup, every effect preserves it, and it "
                         "rules the win out. The invariant is found among simple candidate facts over the "
                         "player slots."},
    },
    "simultaneous-win": {
        "zh": {"summary": "两个阵营可能同时满足胜利条件且无优先级",
               "decides": "两个阵营的胜利条件可能在同一局面中同时成立，而规则没有给出两者的优先级，"
                          "也不允许共同获胜。",
               "why": "法官无法判定谁赢了。",
               "fix": "给出胜利判定的先后顺序。",
               "limits": "从发牌开始的有界步数内的推演。"},
        "en": {"summary": "two factions can win at once with no priority",
               "decides": "Two factions whose win conditions can hold in the same state while the ruleset gives "
                          "no priority between them and neither allows a shared win.",
               "why": "The judge cannot say who won.",
               "fix": "Give a win-check order.",
               "limits": "Bounded traces from a dealt game."},
    },
    "dead-rule": {
        "zh": {"summary": "永远无法触发、或触发后不改变任何东西的规则",
               "decides": "永远无法使用或使用后什么也不做的技能：它的触发条件或发动条件在每个可达局面中都不可满足，"
                          "或者每个效果都让局面保持原样。对能使用、也确实改变局面的技能，逐个效果检查："
                          "效果的条件（if）在结算到它时永远不成立（警告）、总是成立（提示：条件多余），"
                          "或该效果永远不改变局面（警告），例如赋予目标按技能的选择范围必然已有的永久状态、"
                          "把目标转变为其必然已在的阵营，或其结果总被同一技能的其他效果重复或抵消。"
                          "同一原文行上结论相同的效果合为一条。",
               "why": "对局中它是持有者的陷阱，或者说明原文写的并非本意。",
               "fix": "修正条件或效果（或效果的顺序），或删去多余的条件。",
               "limits": "判定为“已证明”（基于可达局面的过近似）；只看界限内的玩家槽位。逐效果检查覆盖一名玩家的"
                         "每种发动（技能涉及的每个参与者、允许的每个目标人数），计数把原文人数之外的其余玩家"
                         "当作任意人数；每个回答都须为不可满足才算证明，求解预算用尽、参与者未绑定或发动方式"
                         "超过 64 种时不报告（未知）。不检查：结果不在模型中的效果（反馈、次数、冷却、强制目标、"
                         "表面身份、刷新、额外角色、转移目标）以及额外角色、转移目标之后的效果；伤害与非永久状态"
                         "是否改变局面（伤害次数与状态持续时间不在模型中）；技能含结果不在模型中的效果时，"
                         "只看效果本身是否改变局面。"},
        "en": {"summary": "a rule that can never fire, or changes nothing when it does",
               "decides": "A skill that can never be used or never does anything: its trigger or condition is "
                          "unsatisfiable in every reachable state, or every effect leaves the state as it was. "
                          "Inside a skill that can be used and changes something, each effect: its `if` never "
                          "holds when the resolution reaches it (warning), always holds there (info: redundant), "
                          "or the effect never changes the state (warning), e.g. it grants a permanent status the "
                          "target filter already requires, converts to the faction the target must already be "
                          "in, or the skill's other effects always repeat or undo it. Effects with the same "
                          "finding on one source line are one finding.",
               "why": "In a game it is a trap for the player holding it, or a sign the text says something "
                      "other than what was meant.",
               "fix": "Correct the condition or the effect (or their order), or drop the redundant condition.",
               "limits": "Verdict proved (over an over-approximation of reachable states); the player slots in "
                         "the bounds. Effects are judged over every use by one slot (every binding, every number "
                         "of targets allowed), counts taking in any rest of the stated table; a proof needs every "
                         "answer unsat, so a budget-out, an unbound word or more than 64 uses gives no finding. "
                         "Not judged: effects whose result is not modelled and, after an extra character or a "
                         "redirect, the rest of the skill; whether a damage or a non-permanent status grant "
                         "changes anything (damage counts and durations are not kept); with an unmodelled "
                         "effect in the skill, only the change at the effect itself."},
    },
    "missing-rule": {
        "zh": {"summary": "规则没有覆盖的可达局面",
               "decides": "规则没有给出结果的可达局面：投票规则未覆盖的平票、既无胜利条件也无失败条件的阵营，"
                          "或从可能为空的集合中随机选取（“随机一名……”），或同一技能的几个效果按一个数值分档"
                          "（强度≤6 / 7–9 / 10，点数 0–2 / 3–5）却留下可达的数值没有任何一档；或已达到失败条件的阵营在合法对局中"
                          "又重新不满足失败条件（有人转入或复活），而原文没有说明判负能否撤销。开局时的随机选取按原文人数范围内的"
                          "每个人数检查发牌（未给上限时检查到下限以上 5 人，并在结果中说明；未给人数范围时按模型的"
                          "玩家槽位检查）。",
               "why": "法官只能临场发挥。",
               "fix": "补上这条规则（没有符合条件的角色时如何处理），或修改配置使总有人符合条件。",
               "limits": "只看语言能表达的局面；开局随机选取看的是发牌时的局面（先结算的其他开局效果不计入），"
                         "发牌只按 setup 的分组与牌数（原文只用文字写出、未写进 groups 的限制不计入）；"
                         "求解预算用尽时报告为未知。分档只看常数区间（至少一档有上限，且各档各自引用原文行）；"
                         "分档缺口在可达状态的上近似中求得，不是重放的对局。"},
        "en": {"summary": "a reachable situation the rules give no outcome for",
               "decides": "A reachable situation for which the rules give no outcome: a vote tie the vote rules "
                          "do not cover, a faction with neither a win nor a lose condition, or a random pick from "
                          "a set that can be empty, or sibling effects that split a number into tiers and leave "
                          "a reachable value with no tier, or a faction that has reached its lose condition and "
                          "a later move of a legal game ends it (someone joins or comes back) while the text does "
                          "not say whether a loss can be undone. A pick made at setup is checked at the deal for every player "
                          "count of the setup's range (an open top: up to 5 above the minimum, said in the "
                          "finding; no range: the model's player slots).",
               "why": "The judge has to improvise.",
               "fix": "Add the rule (what happens when nobody qualifies), or change the setup so somebody always does.",
               "limits": "The situations the language names; a setup pick sees the table as dealt (other setup "
                         "effects resolving before it are not applied), and the deal follows the setup's groups "
                         "and card counts only (a constraint stated in prose, not in groups, is not used); a "
                         "budget-out is reported as unknown."},
    },
    "unknown": {
        "zh": {"summary": "含不透明效果的技能，其交互无法判定",
               "decides": "部分编码为不透明文本（opaque）的技能，其声明写入的内容与同一时段其他技能读写的内容重叠。"
                          "这些交互没有判定：结论为“未知”。求解预算内未能回答的问题也以此类报告。",
               "why": "“未知”从不当作没有问题：这些交互可能有冲突，需要人工核对。",
               "fix": "扩展编码（或语言），使技能完全语义化。",
               "limits": "只能指出重叠，不能判定结果。"},
        "en": {"summary": "a skill with opaque effects whose interactions cannot be decided",
               "decides": "A skill encoded (partly) as opaque text whose declared writes overlap what other "
                          "skills of the same window read or write. Its interactions are not decided: the verdict "
                          "is unknown. Questions the solver could not answer within its budget are reported the "
                          "same way.",
               "why": "Unknown is never reported as clean: these interactions may conflict and need a human look.",
               "fix": "Extend the encoding (or the language) so the skill becomes semantic.",
               "limits": "It can point at the overlap, not decide the outcome."},
    },
}


def summary(kind: str, lang: str, fallback: str = "") -> str:
    return TEXTS.get(kind, {}).get("en" if lang == "en" else "zh", {}).get("summary", fallback)


def explain(kind: str, severity: str, decides_by: str, lang: str, fallback: str = "") -> str:
    """One kind's explanation; fallback (the analysis's docstring) when it has no text yet."""
    lang = "en" if lang == "en" else "zh"
    h = HEADINGS[lang]
    text = TEXTS.get(kind, {}).get(lang)
    head = (f"{kind}{h['open']}{summary(kind, lang, fallback.split(chr(10))[0])}{h['list']}"
            f"{h['severity']} {SEVERITY[lang].get(severity, severity)}{h['list']}"
            f"{h['decides_by']} {DECIDES_BY[lang].get(decides_by, decides_by)}{h['close']}")
    if text is None:
        return head + "\n  " + fallback.replace("\n", "\n  ") + "\n"
    return head + "\n" + "".join(f"  {h[p]}{h['sep']}{text[p]}\n" for p in PARTS if text.get(p))
