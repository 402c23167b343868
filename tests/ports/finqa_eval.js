// A FinQA evaluator port in JavaScript, written for progexec's check-evaluator tests from SPEC §1-2.
// Protocol jsonl / tokens: one JSON case per stdin line, one {"id","valid","value"} line out.
// `node finqa_eval.js [VARIANT] [N]` makes it wrong on purpose, one rule at a time:
//   naive, per_step, parse_float, no_stale_row, percent_ignored, greater_number,
//   exp_negative_refused, crash_after N, no_flush;
// and the classic ports of docs/check-evaluator.md: math_round (Math.round(v * 1e5) / 1e5),
//   to_fixed (Number(v.toFixed(5))), no_round (no final rounding), float32 (every number and result
//   held as a float32, Math.fround), no_table (the table ops unsupported).
"use strict";

const VARIANT = process.argv[2] || "correct";
const CRASH_AFTER = Number(process.argv[3] || "0");
const OPS = new Set(["add", "subtract", "multiply", "divide", "exp", "greater",
  "table_max", "table_min", "table_sum", "table_average"]);
const COMPLEX = { complex: true };  // Python's ** gives a complex number; any later use but + - * / fails

class Invalid extends Error {}

function tokenize(text) {
  const tokens = [];
  for (const piece of text.split(", ")) {
    let current = "";
    for (const ch of piece) {
      if (ch === ")" && current) { tokens.push(current); current = ""; }
      current += ch;
      if (ch === "(" || ch === ")") { tokens.push(current); current = ""; }
    }
    if (current) tokens.push(current);
  }
  tokens.push("EOF");
  return tokens;
}

function pyStrip(s, chars) {  // Python str.strip(chars)
  let a = 0, b = s.length;
  while (a < b && chars.includes(s[a])) a++;
  while (b > a && chars.includes(s[b - 1])) b--;
  return s.slice(a, b);
}

function asciiDigits(s) {  // Python's float() and int() read any Unicode decimal digit
  return s.replace(/\p{Nd}/gu, (ch) => {
    const cp = ch.codePointAt(0);
    let start = cp;
    while (/\p{Nd}/u.test(String.fromCodePoint(start - 1))) start--;
    return String((cp - start) % 10);
  });
}

const FLOAT_RE = /^[+-]?(?:(?:\d(?:_?\d)*)(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:[eE][+-]?\d(?:_?\d)*)?$/;
const SPECIAL_RE = /^([+-]?)(inf|infinity|nan)$/i;

function pyFloat(text) {  // Python float(str); throws like it
  const s = asciiDigits(text.trim());
  const special = SPECIAL_RE.exec(s);
  if (special) return special[2].toLowerCase() === "nan" ? NaN : (special[1] === "-" ? -Infinity : Infinity);
  if (!FLOAT_RE.test(s)) throw new Invalid("float");
  return Number(s.replace(/_/g, ""));
}

function pyInt(text) {
  const s = asciiDigits(text.trim());
  if (!/^[+-]?\d(?:_?\d)*$/.test(s)) throw new Invalid("int");
  return Number(s.replace(/_/g, ""));
}

function parseFloatPrefix(text) {  // the wrong way: JS parseFloat, commas kept
  const v = parseFloat(text);
  if (Number.isNaN(v)) throw new Invalid("float");
  return v;
}

function strToNum(text, marker) {  // null where the official gives "n/a"
  if (VARIANT === "parse_float") {
    try { return parseFloatPrefix(text); } catch (e) { /* fall through to the other rules */ }
  }
  text = text.replace(/,/g, "");
  try { return pyFloat(text); } catch (e) { /* not a plain float */ }
  if (text.includes("%")) {
    try {
      const v = pyFloat(text.replace(/%/g, ""));
      return VARIANT === "percent_ignored" ? v : v / 100.0;
    } catch (e) { return null; }
  }
  if (text.includes(marker)) {
    let rest = text.replace(/const_/g, "");
    if (rest === "m1") rest = "-1";
    return pyFloat(rest);  // throws: the whole program is invalid
  }
  return null;
}

function cleanCell(cell) {
  return cell.replace(/\$/g, "").trim().split("(")[0].trim();
}

function isNum(v) { return typeof v === "number"; }

function pow(a, b) {
  if (VARIANT === "exp_negative_refused" && a < 0) throw new Invalid("negative base");
  if (a === 0 && b < 0) throw new Invalid("zero to a negative power");
  if (a === 1 || b === 0) return 1.0;
  if (a === -1 && !Number.isFinite(b) && !Number.isNaN(b)) return 1.0;
  if (a < 0 && Number.isFinite(a) && Number.isFinite(b) && !Number.isInteger(b)) return COMPLEX;
  const r = a ** b;
  if (!Number.isFinite(r) && Number.isFinite(a) && Number.isFinite(b)) throw new Invalid("overflow");
  return r;
}

function arith(op, a, b) {
  if (a === COMPLEX || b === COMPLEX) {
    if (typeof a === "string" || typeof b === "string" || op === "greater") throw new Invalid("complex");
    if (op === "divide" && b === 0) throw new Invalid("divide by zero");
    return COMPLEX;
  }
  if (op === "greater") {
    if (typeof a !== typeof b) throw new Invalid("mixed comparison");
    if (VARIANT === "greater_number") return a > b ? 1.0 : 0.0;
    return a > b ? "yes" : "no";
  }
  if (typeof a === "string" || typeof b === "string") {
    if (op === "add" && typeof a === "string" && typeof b === "string") return a + b;
    throw new Invalid("string arithmetic");
  }
  switch (op) {
    case "add": return f32(a + b);
    case "subtract": return f32(a - b);
    case "multiply": return f32(a * b);
    case "divide": if (b === 0) throw new Invalid("divide by zero"); return f32(a / b);
    default: return f32(pow(a, b));
  }
}

function pyMax(row, better) {  // Python max/min: keep the current unless a later item compares better
  if (row.length === 0) throw new Invalid("empty");
  let best = row[0];
  for (const v of row.slice(1)) if (better(v, best)) best = v;
  return best;
}

function tableOp(op, row) {
  if (op === "table_max") return pyMax(row, (v, b) => v > b);
  if (op === "table_min") return pyMax(row, (v, b) => v < b);
  let total = 0;
  for (const v of row) total = f32(total + v);
  if (op === "table_sum") return total;
  if (row.length === 0) throw new Invalid("average of nothing");
  return f32(total / row.length);
}

function round5(x) {  // CPython round(x, 5): the exact binary value, ties to even
  if (!Number.isFinite(x) || x === 0 || Math.abs(x) >= 2 ** 52) return x;
  const exact = Math.abs(x).toFixed(100);
  const dot = exact.indexOf(".");
  const tie = exact[dot + 6] === "5" && /^0*$/.test(exact.slice(dot + 7));
  let s = x.toFixed(5);  // exact, but ties go away from zero
  if (tie) {
    const truncated = (x < 0 ? "-" : "") + exact.slice(0, dot + 6);
    if (Number(truncated.slice(-1)) % 2 === 0) s = truncated;
  }
  return Number(s);
}

function naive5(x) {
  if (!Number.isFinite(x)) return x;
  const p = x * 100000;
  let r = Math.round(p);
  if (Math.abs(p % 1) === 0.5 && r % 2 !== 0) r -= 1;  // half to even on the rounded product
  return (r === 0 ? (p < 0 ? -0 : 0) : r) / 100000;
}

function finish(x) {
  if (VARIANT === "math_round") return Number.isFinite(x) ? Math.round(x * 1e5) / 1e5 : x;
  if (VARIANT === "to_fixed") return Number.isFinite(x) ? Number(x.toFixed(5)) : x;
  if (VARIANT === "no_round") return x;
  return VARIANT === "naive" ? naive5(x) : round5(x);
}

function f32(v) {  // the float32 port holds every number in single precision
  return VARIANT === "float32" && typeof v === "number" ? Math.fround(v) : v;
}

function evaluate(tokens, table, dialect) {
  const marker = dialect === "convfinqa" ? "const_" : "const";
  const body = tokens.slice(0, -1);
  if (dialect === "convfinqa" && body.length === 1) {
    const n = f32(strToNum(body[0], marker));
    if (n === null) throw new Invalid("bare");
    return finish(n);
  }
  body.forEach((token, i) => {
    if (i % 4 === 0 && !OPS.has(pyStrip(token, "("))) throw new Invalid("op");
    if ((i + 1) % 4 === 0 && token !== ")") throw new Invalid(")");
  });
  let result = "n/a";
  const results = new Map();
  let row = null;
  let haveRow = false;
  const steps = body.join("|").split(")").slice(0, -1);
  steps.forEach((raw, index) => {
    const step = raw.trim();
    const parts = step.split("(");
    if (parts.length > 2) throw new Invalid("paren");
    if (parts.length < 2) throw new Invalid("no args");
    const op = pyStrip(parts[0], "|").trim();
    const args = pyStrip(parts[1], "|").trim().split("|");
    if (args.length < 2) throw new Invalid("one arg");
    const [arg1, arg2] = [args[0].trim(), args[1].trim()];
    const lookup = (arg) => {
      if (arg.includes("#")) {
        const key = pyInt(arg.replace(/#/g, ""));
        if (!results.has(key)) throw new Invalid("ref");
        return results.get(key);
      }
      const v = f32(strToNum(arg, marker));
      if (v === null) throw new Invalid("literal");
      return v;
    };
    if (["add", "subtract", "multiply", "divide", "exp", "greater"].includes(op)) {
      const a = lookup(arg1);
      const b = lookup(arg2);
      result = arith(op, a, b);
      if (VARIANT === "per_step" && isNum(result)) result = round5(result);
    } else if (op.includes("table")) {
      if (VARIANT === "no_table") throw new Invalid("table ops unsupported");
      if (table === null) throw new Invalid("no table");
      const rows = new Map();
      for (const line of table) {
        if (line.length === 0) throw new Invalid("empty row");
        rows.set(line[0], line.slice(1));
      }
      if (arg1.includes("#")) {
        lookup(arg1);
        if (VARIANT === "no_stale_row" || !haveRow) throw new Invalid("stale row");
      } else {
        if (!rows.has(arg1)) throw new Invalid("row");
        row = rows.get(arg1).map((cell) => {
          const v = f32(strToNum(cleanCell(cell), marker));
          if (v === null) throw new Invalid("cell");
          return v;
        });
        haveRow = true;
      }
      result = tableOp(op, row);
      if (VARIANT === "per_step") result = round5(result);
    }
    results.set(index, result);
  });
  if (result === "yes" || result === "no") return result;
  if (result === "n/a") return null;
  if (!isNum(result)) throw new Invalid("not a number");
  return finish(result);
}

function encodeValue(v) {
  if (v === null || typeof v === "string") return JSON.stringify(v);
  if (Number.isNaN(v)) return '"nan"';
  if (v === Infinity) return '"inf"';
  if (v === -Infinity) return '"-inf"';
  if (Object.is(v, -0)) return "-0.0";
  return JSON.stringify(v);
}

function answer(line) {
  const c = JSON.parse(line);
  const tokens = Array.isArray(c.program) ? c.program : tokenize(c.program);
  let valid = true, value = null;
  try { value = evaluate(tokens, c.table, c.dialect); } catch (e) {
    if (!(e instanceof Invalid) && !(e instanceof TypeError)) throw e;
    valid = false; value = null;
  }
  return `{"id":${JSON.stringify(c.id)},"valid":${valid},"value":${valid ? encodeValue(value) : "null"}}\n`;
}

let pending = "";
let done = 0;
const held = [];
process.stdin.setEncoding("utf8");
process.stdin.on("data", (data) => {
  const lines = (pending + data).split("\n");
  pending = lines.pop();
  let out = "";
  for (const line of lines) {
    if (CRASH_AFTER && done === CRASH_AFTER) process.exit(3);
    out += answer(line);
    done++;
  }
  if (VARIANT === "no_flush") held.push(out); else if (out) process.stdout.write(out);
});
process.stdin.on("end", () => { if (held.length) process.stdout.write(held.join("")); });
