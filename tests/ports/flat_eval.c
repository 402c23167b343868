/* A port of the progexec flat contract (SPEC §6, run_flat) in C, written for check-evaluator's tests.
 * Protocol flat: one JSON case per stdin line with the nine run_flat arguments; one line out:
 * {"id", "status", "present", "value", "is_bool", "bool_value"}.
 * `./flat_eval naive` rounds the final value as round(x * 1e5) / 1e5 (wrong on purpose);
 * `./flat_eval no_divide_check` lets x / 0 through as IEEE infinity (wrong on purpose). */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OK = 1400, NO_STEPS = 1401, LENGTH_MISMATCH = 1402, FORWARD_REFERENCE = 1403,
       REFERENCE_TO_BOOLEAN = 1404, SLICE_OUT = 1405, EMPTY_ROW = 1406, DIVIDE_BY_ZERO = 1407,
       UNKNOWN_OP = 1408, BAD_ARG_KIND = 1409, OVERFLOW = 1410, NON_REAL = 1411, BAD_CELL = 1414,
       NOT_A_NUMBER = 1417 };

static const char *variant = "correct";

typedef struct { double *v; long n; } Array;

/* The JSON array after "key": numbers, or strings such as "inf" and "nan". */
static Array parse_array(const char *line, const char *key) {
    Array a = {NULL, -1};
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\":", key);
    const char *p = strstr(line, pattern);
    if (!p) return a;
    p = strchr(p, '[');
    if (!p) return a;
    a.v = malloc(sizeof(double) * (strlen(p) / 2 + 1));
    a.n = 0;
    p++;
    while (*p && *p != ']') {
        while (*p == ' ' || *p == ',') p++;
        if (*p == ']') break;
        char *end;
        if (*p == '"') {
            a.v[a.n++] = strtod(p + 1, &end);
            end = strchr(p + 1, '"') + 1;
        } else {
            a.v[a.n++] = strtod(p, &end);
        }
        if (end == p) break;
        p = end;
    }
    return a;
}

static int checked(double r, int *status) {
    if (isnan(r)) { *status = NOT_A_NUMBER; return 0; }
    if (isinf(r)) { *status = OVERFLOW; return 0; }
    return 1;
}

static double round5(double x) {
    if (!isfinite(x)) return x;
    if (strcmp(variant, "naive") == 0) return nearbyint(x * 1e5) / 1e5;
    char buffer[512];
    snprintf(buffer, sizeof buffer, "%.5f", x);  /* glibc: exact, ties to even, like CPython round */
    return strtod(buffer, NULL);
}

static void answer(const char *line) {
    const char *id = strstr(line, "\"id\":");
    const char *id_start = id ? strchr(id + 5, '"') : NULL;
    const char *id_end = id_start ? strchr(id_start + 1, '"') : NULL;
    Array ops = parse_array(line, "ops"), k1 = parse_array(line, "arg1_kind"), n1 = parse_array(line, "arg1_num");
    Array k2 = parse_array(line, "arg2_kind"), n2 = parse_array(line, "arg2_num");
    Array values = parse_array(line, "table_values"), offset = parse_array(line, "table_offset");
    Array length = parse_array(line, "table_len");
    const char *steps_at = strstr(line, "\"n_steps\":");
    long steps = steps_at ? strtol(steps_at + 10, NULL, 10) : 0;
    int status = OK, is_bool = 0, bool_value = 0;
    double value = 0.0;
    double *results = calloc((size_t)(steps > 0 ? steps : 1), sizeof(double));
    char *booleans = calloc((size_t)(steps > 0 ? steps : 1), 1);
    if (steps <= 0) status = NO_STEPS;
    else if (steps > ops.n || steps > k1.n || steps > n1.n || steps > k2.n || steps > n2.n || steps > offset.n
             || steps > length.n) status = LENGTH_MISMATCH;
    for (long s = 0; status == OK && s < steps; s++) {
        int op = (int)ops.v[s];
        if (ops.v[s] != op || op < 0 || op > 9) { status = UNKNOWN_OP; break; }
        if (op >= 6) {
            if ((int)k1.v[s] != 2) { status = BAD_ARG_KIND; break; }
            long off = (long)offset.v[s], len = (long)length.v[s];
            if (off < 0 || len < 0 || off + len > values.n) { status = SLICE_OUT; break; }
            if (len == 0) { status = EMPTY_ROW; break; }
            double best = values.v[off], sum = 0.0;
            for (long i = 0; i < len; i++) {
                double v = values.v[off + i];
                if (!isfinite(v)) { status = BAD_CELL; break; }
                if ((op == 6 && v > best) || (op == 7 && v < best)) best = v;
                sum += v;
            }
            if (status != OK) break;
            if (op == 8 || op == 9) {
                if (!checked(sum, &status)) break;
                best = op == 8 ? sum : sum / (double)len;
            }
            results[s] = best;
            continue;
        }
        double operand[2];
        const Array *kinds[2] = {&k1, &k2}, *nums[2] = {&n1, &n2};
        for (int j = 0; j < 2 && status == OK; j++) {
            int kind = (int)kinds[j]->v[s];
            double number = nums[j]->v[s];
            if (kind == 0) {
                if (isnan(number)) status = NOT_A_NUMBER;
                else if (isinf(number)) status = OVERFLOW;
                else operand[j] = number;
            } else if (kind == 1) {
                long target = (long)number;
                if (!isfinite(number) || number != (double)target || target < 0 || target >= s) status = FORWARD_REFERENCE;
                else if (booleans[target]) status = REFERENCE_TO_BOOLEAN;
                else operand[j] = results[target];
            } else {
                status = BAD_ARG_KIND;
            }
        }
        if (status != OK) break;
        double a = operand[0], b = operand[1], r;
        if (op == 5) { booleans[s] = 1; results[s] = a > b; continue; }
        if (op == 3 && b == 0.0 && strcmp(variant, "no_divide_check") != 0) { status = DIVIDE_BY_ZERO; break; }
        if (op == 4) {
            if (a == 0.0 && b < 0) { status = DIVIDE_BY_ZERO; break; }
            if (a < 0 && b != floor(b)) { status = NON_REAL; break; }
            r = pow(a, b);
            if (isinf(r)) { status = OVERFLOW; break; }
        } else {
            r = op == 0 ? a + b : op == 1 ? a - b : op == 2 ? a * b : a / b;
        }
        if (strcmp(variant, "no_divide_check") == 0 && op == 3 && isinf(r)) { results[s] = r; continue; }
        if (!checked(r, &status)) break;
        results[s] = r;
    }
    int present = status == OK;
    if (present) {
        if (booleans[steps - 1]) { is_bool = 1; bool_value = results[steps - 1] != 0.0; }
        else value = round5(results[steps - 1]);
    }
    printf("{\"id\":%.*s,\"status\":%d,\"present\":%s,\"value\":", id_start && id_end ? (int)(id_end - id_start + 1) : 4,
           id_start && id_end ? id_start : "null", status, present ? "true" : "false");
    if (isinf(value)) printf("\"%s\"", value > 0 ? "inf" : "-inf");
    else if (value == 0.0 && signbit(value)) printf("-0.0");
    else printf("%.17g", value);
    printf(",\"is_bool\":%s,\"bool_value\":%s}\n", is_bool ? "true" : "false", bool_value ? "true" : "false");
    fflush(stdout);
    free(ops.v); free(k1.v); free(n1.v); free(k2.v); free(n2.v); free(values.v); free(offset.v); free(length.v);
    free(results); free(booleans);
}

int main(int argc, char **argv) {
    if (argc > 1) variant = argv[1];
    char *line = NULL;
    size_t size = 0;
    while (getline(&line, &size, stdin) > 0) answer(line);
    free(line);
    return 0;
}
