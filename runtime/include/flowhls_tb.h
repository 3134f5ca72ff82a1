/* flowhls_tb.h: testbench support for generated projects (C99 and C++): .npy loading and
 * comparison of outputs with their reference. */
#ifndef FLOWHLS_TB_H
#define FLOWHLS_TB_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Element kinds of the buffers a testbench compares. */
enum { FLOWHLS_KIND_SIGNED = 0, FLOWHLS_KIND_UNSIGNED = 1, FLOWHLS_KIND_FLOAT = 2 };

/* Reads a little-endian, C-order .npy file `dir`/`file` into `data`, checking its dtype
 * (`descr`, e.g. "<f4") and element count. Exits with status 2 and a message on any problem. */
static inline void flowhls_load_npy(const char *dir, const char *file, void *data, size_t elem_size, size_t count,
                                    const char *descr) {
    char path[4096];
    char header[4096];
    char expected[64];
    unsigned char magic[10];
    size_t header_len, elems = 1;
    const char *shape, *p;
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", dir, file);
    f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "ERROR: cannot open %s\n", path);
        exit(2);
    }
    if (fread(magic, 1, 10, f) != 10 || memcmp(magic, "\x93NUMPY", 6) != 0 || magic[6] != 1) {
        fprintf(stderr, "ERROR: %s is not a version 1 .npy file\n", path);
        exit(2);
    }
    header_len = (size_t)magic[8] | ((size_t)magic[9] << 8);
    if (header_len == 0 || header_len >= sizeof header || fread(header, 1, header_len, f) != header_len) {
        fprintf(stderr, "ERROR: %s has a truncated header\n", path);
        exit(2);
    }
    header[header_len] = '\0';
    snprintf(expected, sizeof expected, "'descr': '%s'", descr);
    if (!strstr(header, expected)) {
        fprintf(stderr, "ERROR: %s does not hold %s data: %s\n", path, descr, header);
        exit(2);
    }
    if (!strstr(header, "'fortran_order': False")) {
        fprintf(stderr, "ERROR: %s is in Fortran order\n", path);
        exit(2);
    }
    shape = strstr(header, "'shape': (");
    if (!shape) {
        fprintf(stderr, "ERROR: %s has no shape\n", path);
        exit(2);
    }
    for (p = shape + 10; *p && *p != ')';) {
        char *end;
        unsigned long long v = strtoull(p, &end, 10);
        if (end == p) {
            p++;
            continue;
        }
        elems *= (size_t)v;
        p = end;
    }
    if (elems != count) {
        fprintf(stderr, "ERROR: %s holds %zu values, the kernel expects %zu\n", path, elems, count);
        exit(2);
    }
    if (fread(data, elem_size, count, f) != count) {
        fprintf(stderr, "ERROR: %s is truncated\n", path);
        exit(2);
    }
    fclose(f);
}

/* Element `i` of a buffer as a double. */
static inline double flowhls_element(const void *data, size_t i, size_t elem_size, int kind) {
    const unsigned char *p = (const unsigned char *)data + i * elem_size;
    if (kind == FLOWHLS_KIND_FLOAT) {
        if (elem_size == 4) {
            float v;
            memcpy(&v, p, 4);
            return v;
        } else {
            double v;
            memcpy(&v, p, 8);
            return v;
        }
    }
    if (kind == FLOWHLS_KIND_SIGNED) {
        switch (elem_size) {
        case 1: { int8_t v; memcpy(&v, p, 1); return v; }
        case 2: { int16_t v; memcpy(&v, p, 2); return v; }
        case 4: { int32_t v; memcpy(&v, p, 4); return v; }
        default: { int64_t v; memcpy(&v, p, 8); return (double)v; }
        }
    }
    switch (elem_size) {
    case 1: { uint8_t v; memcpy(&v, p, 1); return v; }
    case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
    case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
    default: { uint64_t v; memcpy(&v, p, 8); return (double)v; }
    }
}

/* Writes `count` elements of `elem_size` bytes at `data` to `dir`/`file` as a one-dimensional
 * version 1 .npy file of dtype `descr` (the trace testbench's dumps). Exits with status 2 and a
 * message when it cannot. */
static inline void flowhls_save_npy(const char *dir, const char *file, const void *data, size_t elem_size, size_t count,
                                    const char *descr) {
    char path[4096];
    char header[256];
    int len;
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", dir, file);
    len = snprintf(header, sizeof header, "{'descr': '%s', 'fortran_order': False, 'shape': (%lu,), }", descr,
                   (unsigned long)count);
    while ((10 + len + 1) % 64 != 0) header[len++] = ' ';
    header[len++] = '\n';
    f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "ERROR: cannot write %s\n", path);
        exit(2);
    }
    fwrite("\x93NUMPY\x01\x00", 1, 8, f);
    fputc(len & 0xff, f);
    fputc((len >> 8) & 0xff, f);
    if (fwrite(header, 1, (size_t)len, f) != (size_t)len || fwrite(data, elem_size, count, f) != count || fclose(f)) {
        fprintf(stderr, "ERROR: cannot write %s\n", path);
        exit(2);
    }
}

/* Result of comparing one output with its reference. */
typedef struct {
    size_t count;
    size_t mismatches; /* values outside the tolerance */
    size_t bit_diffs;  /* values whose bits differ */
    double max_abs, max_rel;
    size_t first_bad;
    double first_got, first_want;
} flowhls_comparison;

/* Compares `got` with `want`: a value matches when both are NaN or
 * |got - want| <= atol + rtol * |want|. */
static inline flowhls_comparison flowhls_compare(const void *got, const void *want, size_t elem_size, int kind,
                                                 size_t count, double atol, double rtol) {
    flowhls_comparison c;
    size_t i;
    memset(&c, 0, sizeof c);
    c.count = count;
    for (i = 0; i < count; i++) {
        double g = flowhls_element(got, i, elem_size, kind), w = flowhls_element(want, i, elem_size, kind);
        int both_nan = isnan(g) && isnan(w);
        double err = both_nan ? 0.0 : fabs(g - w);
        double rel;
        if (memcmp((const unsigned char *)got + i * elem_size, (const unsigned char *)want + i * elem_size,
                   elem_size) != 0) {
            c.bit_diffs++;
        }
        if (isnan(err)) err = INFINITY;
        rel = err == 0.0 ? 0.0 : err / fabs(w);
        if (err > c.max_abs) c.max_abs = err;
        if (rel > c.max_rel) c.max_rel = rel;
        if (!both_nan && !(err <= atol + rtol * fabs(w))) {
            if (c.mismatches == 0) {
                c.first_bad = i;
                c.first_got = g;
                c.first_want = w;
            }
            c.mismatches++;
        }
    }
    return c;
}

/* Prints one line about an output; returns whether it passed. */
static inline int flowhls_report(const char *name, flowhls_comparison c) {
    printf("  output %s: %zu values, %zu mismatches, max abs error %.6g, max rel error %.6g, ", name, c.count,
           c.mismatches, c.max_abs, c.max_rel);
    if (c.bit_diffs == 0) printf("bit-exact\n");
    else printf("%zu values differ in bits\n", c.bit_diffs);
    if (c.mismatches) {
        printf("    first mismatch at index %zu: got %.9g, expected %.9g\n", c.first_bad, c.first_got, c.first_want);
    }
    return c.mismatches == 0;
}

/* The verdict, PASS or FAIL, is the last line a testbench prints. A C++ testbench defers it to
 * an exit handler registered before the kernel runs (flowhls_verdict_at_exit), since handlers
 * run in reverse order: it then follows what vendor headers print at exit (AMD's hls_stream.h
 * reports the streams' maximum depth from a handler registered when a stream is first used). */
static int flowhls_verdict_failed = -1, flowhls_verdict_outputs = 0, flowhls_verdict_deferred = 0;

static inline void flowhls_print_verdict(void) {
    if (flowhls_verdict_failed > 0) {
        printf("FAIL: %d of %d output(s) differ from the reference\n", flowhls_verdict_failed,
               flowhls_verdict_outputs);
    } else if (flowhls_verdict_failed == 0) {
        printf("PASS: %d output(s) match the reference\n", flowhls_verdict_outputs);
    }
}

static inline void flowhls_verdict_at_exit(void) {
    flowhls_verdict_deferred = 1;
    atexit(flowhls_print_verdict);
}

/* Records the verdict of `failed` outputs out of `outputs` and prints it (now, or at exit when
 * deferred); returns the testbench's exit status. */
static inline int flowhls_verdict(int failed, int outputs) {
    flowhls_verdict_failed = failed;
    flowhls_verdict_outputs = outputs;
    if (!flowhls_verdict_deferred) flowhls_print_verdict();
    return failed ? 1 : 0;
}

/* Command line of a testbench: [DATA_DIR] [--atol X] [--rtol Y]; the tolerances default to
 * `atol` and `rtol`. */
typedef struct {
    const char *data_dir;
    double atol, rtol;
} flowhls_args;

static inline flowhls_args flowhls_parse_args(int argc, char **argv, double atol, double rtol) {
    flowhls_args a;
    int i;
    a.data_dir = "data";
    a.atol = atol;
    a.rtol = rtol;
    for (i = 1; i < argc; i++) {
        if ((strcmp(argv[i], "--atol") == 0 || strcmp(argv[i], "--rtol") == 0) && i + 1 < argc) {
            double v = strtod(argv[i + 1], NULL);
            if (strcmp(argv[i], "--atol") == 0) a.atol = v;
            else a.rtol = v;
            i++;
        } else if (argv[i][0] != '-') {
            a.data_dir = argv[i];
        } else {
            fprintf(stderr, "usage: %s [DATA_DIR] [--atol X] [--rtol Y]\n", argv[0]);
            exit(2);
        }
    }
    return a;
}

#endif /* FLOWHLS_TB_H */
