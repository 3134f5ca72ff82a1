// The Stream-HLS synthetic, MLP, transformer and CNN blocks of the calibration corpus as Halide examples (shls_*).
#include "examples/ExampleRegistry.h"

#include <cmath>
#include <map>

namespace flowhls {

using Halide::Expr;
using Halide::Func;
using Halide::ImageParam;
using Halide::RDom;
using Halide::Var;

namespace {

const Halide::Type f32 = Halide::Float(32);

// Builds a Stream-HLS dataflow design: one process (Func computed at the root, a filter) per
// node, FIFOs between them with the corpus's depths, accumulators and operand copies in arrays
// local to their node.
class Design {
public:
    explicit Design(std::string name) : name_(std::move(name)) {}

    // A kernel argument of C shape [rows][cols] (Halide: cols innermost).
    ImageParam matrix(const std::string &name, int rows, int cols) {
        ImageParam p(f32, 2, name);
        inputs_.push_back({p, {cols, rows}});
        return p;
    }
    ImageParam vector(const std::string &name, int n) {
        ImageParam p(f32, 1, name);
        inputs_.push_back({p, {n}});
        return p;
    }
    // A kernel argument of C shape [extents.back()]...[extents.front()] (Halide order, innermost first).
    ImageParam tensor(const std::string &name, const std::vector<int> &extents) {
        ImageParam p(f32, static_cast<int>(extents.size()), name);
        inputs_.push_back({p, extents});
        return p;
    }

    // out[i][j] = sum_k a[i][k] * b[k][j] for i < m, j < n, k < depth (`transposed_b`: b[j][k],
    // a weight matrix by output rows): a and b are read directly, or first copied in their
    // storage order into arrays local to the node (`a_cached`, `b_cached`: the corpus copies
    // its FIFO operands, and arrays it reads across the loops); `k_inner` chooses the loop
    // order i, j, k (the accumulator recurs at distance 1) or i, k, j.
    Func matmul(const std::string &name, Func a, bool a_stream, Func b, bool b_stream, int m, int n, int depth,
                bool k_inner, int fifo_depth, bool transposed_b = false) {
        Var i("i"), j("j");
        RDom k(0, depth, "k");
        Func a_cache(name + "_a"), b_cache(name + "_b"), acc(name + "_acc"), out(name);
        Func ra = a, rb = b;
        if (a_stream) {
            a_cache(j, i) = a(j, i);
            ra = a_cache;
        }
        if (b_stream) {
            b_cache(j, i) = b(j, i);
            rb = b_cache;
        }
        acc(j, i) = 0.0f;
        acc(j, i) += ra(k, i) * (transposed_b ? rb(k, j) : rb(j, k));
        out(j, i) = acc(j, i);
        out.compute_root();
        acc.compute_at(out, Var::outermost());
        if (b_stream) b_cache.compute_at(out, Var::outermost());
        if (a_stream) a_cache.compute_at(out, Var::outermost());
        if (!k_inner) acc.update(0).reorder(j, k, i);
        shapes_[name] = {n, m};
        stream(out, fifo_depth);
        return out;
    }

    // A batched product out(j, i, h) = sum_k a(k, i, h) * b(j, k, h) for h < heads, i < m,
    // j < n, k < depth (heads 0: a two-dimensional product without h), both operands copied
    // into arrays local to the node in the order they arrive (`a_by_columns`: `a` arrives as
    // a(i, k, h), its transpose, and is copied into an array of a's shape column by column).
    // `loops` orders i, j, k inside h, outermost first ("ijk", "ikj", "kij", "jki");
    // `out_transposed`: the result is stored out(i, j, h) (written row by row of the transpose,
    // with loops "jki"). fifo_depth 0: the result is an array (a ping-pong buffer).
    Func product(const std::string &name, Func a, bool a_by_columns, Func b, int heads, int m, int n, int depth,
                 const std::string &loops, int fifo_depth, bool out_transposed = false) {
        Var i("i"), j("j"), k("k"), h("h");
        RDom r(0, depth, name + "_r");
        auto at = [&](Expr inner, Expr outer) {
            std::vector<Expr> v = {inner, outer};
            if (heads > 0) v.push_back(h);
            return v;
        };
        auto vars = [&](Var inner, Var outer) {
            std::vector<Var> v = {inner, outer};
            if (heads > 0) v.push_back(h);
            return v;
        };
        Func a_cache(name + "_a"), b_cache(name + "_b"), acc(name + "_acc"), out(name);
        if (a_by_columns) {
            a_cache(vars(k, i)) = a(at(i, k));
            a_cache.reorder(heads > 0 ? std::vector<Halide::VarOrRVar>{i, k, h} : std::vector<Halide::VarOrRVar>{i, k});
        } else {
            a_cache(vars(k, i)) = a(at(k, i));
        }
        b_cache(vars(j, k)) = b(at(j, k));
        std::vector<Var> acc_vars = out_transposed ? vars(i, j) : vars(j, i);
        acc(acc_vars) = 0.0f;
        acc(acc_vars) += a_cache(at(r, i)) * b_cache(at(j, r));
        out(acc_vars) = acc(acc_vars);
        std::vector<Halide::VarOrRVar> order;
        for (auto c = loops.rbegin(); c != loops.rend(); ++c) {
            if (*c == 'i') order.push_back(i);
            if (*c == 'j') order.push_back(j);
            if (*c == 'k') order.push_back(r.x);
        }
        if (heads > 0) order.push_back(h);
        acc.update(0).reorder(order);
        out.compute_root();
        acc.compute_at(out, Var::outermost());
        b_cache.compute_at(out, Var::outermost());
        a_cache.compute_at(out, Var::outermost());
        if (fifo_depth > 0) {
            stream(out, fifo_depth);
        } else {
            ping_pongs_.push_back(out);
        }
        return out;
    }

    // A node reducing the rows of `in` (j, i, h: j innermost, n elements) into an array local
    // to the node, from `init` by `combine`, and streaming each result: out(i, h).
    Func reduce_rows(const std::string &name, Func in, int n, Expr init,
                     const std::function<Expr(Expr, Expr)> &combine, int fifo_depth) {
        Var i("i"), h("h");
        RDom r(0, n, name + "_r");
        Func acc(name + "_acc"), out(name);
        acc(i, h) = init;
        acc(i, h) = combine(acc(i, h), in(r, i, h));
        out(i, h) = acc(i, h);
        out.compute_root();
        acc.compute_at(out, Var::outermost());
        stream(out, fifo_depth);
        return out;
    }

    // A node applying `f` to every element of `in` (j, i, h) and to the row's value of `row`
    // (i, h, a FIFO of one element per row, copied into an array local to the node).
    Func map_with_row(const std::string &name, Func in, Func row, const std::function<Expr(Expr, Expr)> &f,
                      int fifo_depth) {
        Var j("j"), i("i"), h("h");
        Func cache(name + "_row"), out(name);
        cache(i, h) = row(i, h);
        out(j, i, h) = f(in(j, i, h), cache(i, h));
        out.compute_root();
        cache.compute_at(out, Var::outermost());
        stream(out, fifo_depth);
        return out;
    }

    // A node copying `f` into an array between processes (a ping-pong buffer): `f` is defined
    // by the caller, computed at the root, in its own loop order.
    Func array_node(Func f) {
        f.compute_root();
        ping_pongs_.push_back(f);
        return f;
    }
    // The same into a FIFO of `fifo_depth` elements.
    Func stream_node(Func f, int fifo_depth) {
        f.compute_root();
        stream(f, fifo_depth);
        return f;
    }

    // A node writing the transpose of `w` (rows x cols) into an array (a ping-pong buffer between
    // processes), reading `w` in its storage order (or, `write_in_order`, writing the
    // transpose in its own storage order, reading `w` by columns).
    Func transpose(const std::string &name, Func w, bool write_in_order = false) {
        Var x("x"), y("y");
        Func t(name);
        t(y, x) = w(x, y);
        t.compute_root();
        if (!write_in_order) t.reorder(x, y);
        ping_pongs_.push_back(t);
        return t;
    }

    // A node streaming the array argument `w` in its storage order (`transposed`: streaming its
    // transpose, reading `w` by columns).
    Func stream_of(const std::string &name, Func w, int fifo_depth, bool transposed = false) {
        Var x("x"), y("y");
        Func s(name);
        if (transposed) {
            s(y, x) = w(x, y);
        } else {
            s(x, y) = w(x, y);
        }
        s.compute_root();
        stream(s, fifo_depth);
        return s;
    }

    // A node writing `src` (c x h x w, Halide (x, y, c)) into an array framed by one zero
    // element on each side of x and y (a ping-pong buffer): zeros first, then the interior.
    Func pad(const std::string &name, const std::function<Expr(Expr, Expr, Expr)> &src, int c, int h, int w) {
        Var x("x"), y("y"), ch("c");
        RDom r(0, w, 0, h, 0, c, name + "_r");
        Func p(name);
        p(x, y, ch) = 0.0f;
        p(r.x + 1, r.y + 1, r.z) = src(r.x, r.y, r.z);
        p.compute_root();
        ping_pongs_.push_back(p);
        return p;
    }

    // A 3x3 convolution of `in` (padded, Halide (x, y, c)) by `w`, accumulated in an array
    // local to the node and streamed out: dense over `c_in` input channels (w(kx, ky, ci, co),
    // loops co, y, x, ci, ky, kx; the result is (x, y, c)), or `depthwise` (w(kx, ky, c), loops
    // y, x, c, ky, kx; the result is (c, x, y), channels innermost as the FIFO carries them).
    Func conv3x3(const std::string &name, Func in, Func w, int c_in, bool depthwise, int fifo_depth) {
        Var x("x"), y("y"), c("c");
        Func acc(name + "_acc"), out(name);
        acc(x, y, c) = 0.0f;
        if (depthwise) {
            RDom k(0, 3, 0, 3, name + "_k");
            acc(x, y, c) += in(x + k.x, y + k.y, c) * w(k.x, k.y, c);
            acc.update(0).reorder(k.x, k.y, c, x, y);
            out(c, x, y) = acc(x, y, c);
        } else {
            RDom k(0, 3, 0, 3, 0, c_in, name + "_k");
            acc(x, y, c) += in(x + k.x, y + k.y, k.z) * w(k.x, k.y, k.z, c);
            out(x, y, c) = acc(x, y, c);
        }
        out.compute_root();
        acc.compute_at(out, Var::outermost());
        stream(out, fifo_depth);
        return out;
    }

    // A 1x1 convolution of the stream `in` (Halide (ci, x, y)) by w(0, 0, ci, co): `in` copied
    // into an array local to the node in its stream order, then loops co, y, x, ci.
    Func pointwise(const std::string &name, Func in, Func w, int c_in, int fifo_depth) {
        Var x("x"), y("y"), c("c");
        RDom k(0, c_in, name + "_k");
        Func cache(name + "_in"), acc(name + "_acc"), out(name);
        cache(c, x, y) = in(c, x, y);
        acc(x, y, c) = 0.0f;
        acc(x, y, c) += cache(k, x, y) * w(0, 0, k, c);
        out(x, y, c) = acc(x, y, c);
        out.compute_root();
        acc.compute_at(out, Var::outermost());
        cache.compute_at(out, Var::outermost());
        stream(out, fifo_depth);
        return out;
    }

    // A node applying `f` to every element of the three-dimensional `in` (c, y, x order).
    Func map3(const std::string &name, Func in, const std::function<Expr(Expr, Var, Var, Var)> &f, int fifo_depth) {
        Var x("x"), y("y"), c("c");
        Func out(name);
        out(x, y, c) = f(in(x, y, c), x, y, c);
        out.compute_root();
        stream(out, fifo_depth);
        return out;
    }

    // A node applying `f` to every element of `in` (rows x cols, row order).
    Func map(const std::string &name, Func in, const std::function<Expr(Expr, Var, Var)> &f, int fifo_depth) {
        Var j("j"), i("i");
        Func out(name);
        out(j, i) = f(in(j, i), j, i);
        out.compute_root();
        stream(out, fifo_depth);
        return out;
    }

    // The program with `result` copied to the output argument `out` by a last node.
    HalideProgram finish(Func result, int rows, int cols) {
        Var j("j"), i("i");
        Func out("out");
        out(j, i) = result(j, i);
        return program(out, {cols, rows});
    }
    // The same from the transpose of `result` (result(i, j) stored i innermost): the last node
    // reads it in its storage order and writes the output by columns.
    HalideProgram finish_transposed(Func result, int rows, int cols) {
        Var j("j"), i("i");
        Func out("out");
        out(j, i) = result(i, j);
        out.reorder(i, j);
        return program(out, {cols, rows});
    }
    // The same for a c x h x w `result`, written to an output of C shape [1][c][h][w].
    HalideProgram finish(Func result, int c, int h, int w) {
        Var x("x"), y("y"), ch("c"), n("n");
        Func out("out");
        out(x, y, ch, n) = result(x, y, ch);
        return program(out, {w, h, c, 1});
    }

private:
    HalideProgram program(Func out, const std::vector<int> &extents) {
        HalideProgram p{name_, inputs_, {{out, extents}}};
        for (const ProgramInput &in : p.inputs) p.directives.interface(in.param.name(), InterfaceMode::Bram);
        p.directives.interface(out, InterfaceMode::Bram);
        for (const auto &s : streams_) p.directives.stream(s.first, s.second);
        for (const Func &f : ping_pongs_) p.directives.ping_pong(f);
        return p;
    }

    void stream(Func f, int depth) {
        if (depth > 0) streams_.emplace_back(f, depth);
    }
    std::string name_;
    std::vector<ProgramInput> inputs_;
    std::vector<std::pair<Func, int>> streams_;
    std::vector<Func> ping_pongs_;
    std::map<std::string, std::vector<int>> shapes_;
};

// k7mmseq: seven chained products X_{t+1} = X_t W_t of 64-row matrices; `widths` are the
// column counts (balanced: all 64). The first node reads both operands from arrays; the others
// read X_t from the previous node's FIFO (copied into a local array) and W_t from an array.
// `k_inner[t]` is node t's loop order (opt1: all k innermost; opt2 permutes the bottlenecks).
HalideProgram k7mmseq(const std::string &name, const std::vector<int> &widths, const std::vector<bool> &k_inner,
                      const std::vector<int> &fifo) {
    Design d("kernel_" + name);
    ImageParam a = d.matrix("A", 64, widths[0]);
    std::vector<ImageParam> w;
    for (size_t t = 0; t + 1 < widths.size(); t++) {
        w.push_back(d.matrix("W" + std::to_string(t), widths[t], widths[t + 1]));
    }
    Func x = d.matmul("mm0", a, false, w[0], false, 64, widths[1], widths[0], k_inner[0], fifo[0]);
    for (size_t t = 1; t < w.size(); t++) {
        x = d.matmul("mm" + std::to_string(t), x, true, w[t], false, 64, widths[t + 1], widths[t], k_inner[t], fifo[t]);
    }
    return d.finish(x, 64, widths.back());
}

ExampleDef k7mmseq_example(bool balanced) {
    ExampleDef d;
    d.name = balanced ? "shls_k7mmseq_balanced" : "shls_k7mmseq_unbalanced";
    d.description = std::string("Stream-HLS synthetic block: seven chained matrix products (") +
                    (balanced ? "64x64 each" : "widths 32..128") + "), one process per product";
    std::vector<int> widths = balanced ? std::vector<int>{64, 64, 64, 64, 64, 64, 64, 64}
                                       : std::vector<int>{32, 64, 64, 128, 128, 64, 32, 16};
    std::vector<int> fifo;
    for (size_t t = 1; t < widths.size(); t++) fifo.push_back(64 * widths[t]);
    std::vector<bool> opt1(7, true), opt2(7, false);
    if (!balanced) opt2[0] = opt2[1] = true;  // the two lightest products keep k innermost
    std::string name = balanced ? "k7mmseq_balanced" : "k7mmseq_unbalanced";
    d.algorithm = [=](const std::string &) { return k7mmseq(name, widths, opt1, fifo); };
    d.schedules = {
        {"opt1", "Stream-HLS opt1: every product with k innermost (the accumulator recurs at distance 1)",
         [](HalideProgram &) {}, [=](const std::string &) { return k7mmseq(name, widths, opt1, fifo); }},
        {"opt2", "Stream-HLS opt2: the products' loops permuted to i, k, j (II 1) where they bound the interval",
         [](HalideProgram &) {}, [=](const std::string &) { return k7mmseq(name, widths, opt2, fifo); }},
    };
    return d;
}

// x + b[j] (a bias per column), optionally through a ReLU (select(v > 0, v, 0), as the corpus).
std::function<Expr(Expr, Var, Var)> bias(const ImageParam &b, bool relu) {
    return [b, relu](Expr v, Var j, Var) {
        Expr s = v + b(j);
        return relu ? Halide::select(s > 0.0f, s, 0.0f) : s;
    };
}

// ResMLP (Stream-HLS mlps): x[8][1024] through four linear layers (weights [out][in], each
// streamed by its own node and copied into the product's node) with a residual connection
// around the second: h = x W1^T + b1; y = relu(relu(h) W2^T + b2 + h); z = y W3^T + b3;
// out = z W4^T + b4. opt2 permutes every product to i, k, j.
HalideProgram resmlp(int opt) {
    Design d("kernel_resmlp");
    ImageParam x = d.matrix("x", 8, 1024), b1 = d.vector("b1", 512), w1 = d.matrix("W1", 512, 1024),
               b2 = d.vector("b2", 512), w2 = d.matrix("W2", 512, 512), b3 = d.vector("b3", 256),
               w3 = d.matrix("W3", 256, 512), b4 = d.vector("b4", 10), w4 = d.matrix("W4", 10, 256);
    bool k_inner = opt == 1;
    Func s1 = d.stream_of("W1_stream", w1, 524288);
    Func m1 = d.matmul("mm1", x, false, s1, true, 8, 512, 1024, k_inner, 4096, true);
    Func h = d.map("h", m1, bias(b1, false), 4096);
    Func r = d.map("h_relu", h, [](Expr v, Var, Var) { return Halide::select(v > 0.0f, v, 0.0f); }, 4096);
    Func s2 = d.stream_of("W2_stream", w2, 262144);
    Func m2 = d.matmul("mm2", r, true, s2, true, 8, 512, 512, k_inner, 4096, true);
    Func y = d.map("y", m2,
                   [b2, h](Expr v, Var j, Var i) {
                       Expr s = v + b2(j) + h(j, i);
                       return Halide::select(s > 0.0f, s, 0.0f);
                   },
                   4096);
    Func s3 = d.stream_of("W3_stream", w3, 131072);
    Func m3 = d.matmul("mm3", y, true, s3, true, 8, 256, 512, k_inner, 2048, true);
    Func z = d.map("z", m3, bias(b3, false), 2048);
    Func s4 = d.stream_of("W4_stream", w4, 2560);
    Func m4 = d.matmul("mm4", z, true, s4, true, 8, 10, 256, k_inner, 80, true);
    Func o = d.map("o", m4, bias(b4, false), 80);
    return d.finish(o, 8, 10);
}

// FeedForward (Stream-HLS transformers): x[512][128] -> relu(x W1^T + b1) W2^T + b2 with
// W1[256][128] and W2[128][256] transposed by their own nodes into ping-pong arrays.
HalideProgram feedforward(int opt) {
    Design d("kernel_feedforward");
    ImageParam x = d.matrix("x", 512, 128), b1 = d.vector("b1", 256), w1 = d.matrix("W1", 256, 128),
               b2 = d.vector("b2", 128), w2 = d.matrix("W2", 128, 256);
    bool k_inner = opt == 1;
    Func xs = d.stream_of("x_stream", x, 65536);
    Func w1t = d.transpose("W1T", w1);
    Func m1 = d.matmul("mm1", xs, true, w1t, true, 512, 256, 128, k_inner, 131072);
    Func h = d.map("h", m1, bias(b1, true), 131072);
    Func w2t = d.transpose("W2T", w2);
    Func m2 = d.matmul("mm2", h, true, w2t, true, 512, 128, 256, k_inner, 65536);
    Func o = d.map("o", m2, bias(b2, false), 65536);
    return d.finish(o, 512, 128);
}

// Autoencoder (Stream-HLS mlps): x[32][784] through six linear layers 784-256-128-64-128-256-784
// (weights [out][in], biases; ReLU after all but the third, a sigmoid 1 / (exp(-v) + 1) after the
// last). opt1 streams every weight in its storage order and keeps k innermost; opt2 streams the
// first two weights transposed (their products permuted to i, k, j), writes the others
// transposed into arrays, and permutes the last product too.
HalideProgram autoencoder(int opt) {
    Design d("kernel_autoencoder");
    const std::vector<int> widths = {784, 256, 128, 64, 128, 256, 784};
    ImageParam x = d.matrix("x", 32, 784);
    std::vector<ImageParam> w, b;
    for (size_t l = 0; l + 1 < widths.size(); l++) {
        std::string n = std::to_string(l + 1);
        b.push_back(d.vector("b" + n, widths[l + 1]));
        w.push_back(d.matrix("W" + n, widths[l + 1], widths[l]));
    }
    Func h = x;
    for (size_t l = 0; l + 1 < widths.size(); l++) {
        std::string n = std::to_string(l + 1);
        int in = widths[l], out = widths[l + 1], fifo = 32 * out;
        Func m;
        if (opt == 1) {
            Func ws = d.stream_of("W" + n + "_stream", w[l], in * out);
            m = d.matmul("mm" + n, h, l > 0, ws, true, 32, out, in, true, fifo, true);
        } else if (l < 2) {
            Func ws = d.stream_of("W" + n + "T_stream", w[l], in * out, true);
            m = d.matmul("mm" + n, h, l > 0, ws, true, 32, out, in, false, fifo);
        } else {
            Func wt = d.transpose("W" + n + "T", w[l], true);
            m = d.matmul("mm" + n, h, true, wt, true, 32, out, in, l != 5, fifo);
        }
        if (l == 5) {
            ImageParam bias_l = b[l];
            h = d.map("y" + n, m,
                      [bias_l](Expr v, Var j, Var) { return 1.0f / (Halide::exp(-(v + bias_l(j))) + 1.0f); }, fifo);
        } else {
            h = d.map("y" + n, m, bias(b[l], l != 2), fifo);
        }
    }
    return d.finish(h, 32, 784);
}

// The batch-normalization scale of the CNN blocks at inference (mean 0, variance 1, eps 1e-5),
// 1 / sqrt(1 + 1e-5) as their sources compute it (in double, rounded to float).
float bn_scale() {
    return static_cast<float>(1.0 / std::sqrt(static_cast<double>(1.0e-5f + 1.0f)));
}

Expr relu(Expr v) {
    return Halide::select(v > 0.0f, v, 0.0f);
}

// ResidualBlock (Stream-HLS cnns, opt1): x[1][16][56][56] -> relu(bn(conv2(pad(relu(bn(conv1(
// pad(x)))))) + x), 3x3 convolutions of 16 channels, each padding a ping-pong array, the other
// nodes linked by FIFOs.
HalideProgram residual_block(int) {
    Design d("kernel_residual_block");
    const int c = 16, h = 56, w = 56, fifo = c * h * w;
    ImageParam x = d.tensor("x", {w, h, c, 1}), w1 = d.tensor("W1", {3, 3, c, c}),
               w2 = d.tensor("W2", {3, 3, c, c});
    float s = bn_scale();
    Func p1 = d.pad("x_pad", [x](Expr i, Expr j, Expr k) { return x(i, j, k, 0); }, c, h, w);
    Func c1 = d.conv3x3("conv1", p1, w1, c, false, fifo);
    Func r1 = d.map3("bn1", c1, [s](Expr v, Var, Var, Var) { return relu(v * s); }, fifo);
    Func p2 = d.pad("bn1_pad", [r1](Expr i, Expr j, Expr k) { return r1(i, j, k); }, c, h, w);
    Func c2 = d.conv3x3("conv2", p2, w2, c, false, fifo);
    Func r2 = d.map3("bn2", c2, [s, x](Expr v, Var i, Var j, Var k) { return relu(v * s + x(i, j, k, 0)); }, fifo);
    return d.finish(r2, c, h, w);
}

// DepthwiseSeparableConvBlock (Stream-HLS cnns, opt1): x[1][8][112][112] -> relu(bn(pointwise(
// depthwise3x3(pad(x))))), the padded input a ping-pong array, the rest linked by FIFOs.
HalideProgram depthwise_separable_block(int) {
    Design d("kernel_depthwise_separable_block");
    const int c = 8, h = 112, w = 112, fifo = c * h * w;
    ImageParam x = d.tensor("x", {w, h, c, 1}), pw = d.tensor("W_pointwise", {1, 1, c, c}),
               dw = d.tensor("W_depthwise", {3, 3, c});
    float s = bn_scale();
    Func p = d.pad("x_pad", [x](Expr i, Expr j, Expr k) { return x(i, j, k, 0); }, c, h, w);
    Func c1 = d.conv3x3("depthwise", p, dw, c, true, fifo);
    Func c2 = d.pointwise("pointwise", c1, pw, c, fifo);
    Func r = d.map3("bn", c2, [s](Expr v, Var, Var, Var) { return relu(v * s); }, fifo);
    return d.finish(r, c, h, w);
}

// MultiHeadSelfAttention (Stream-HLS transformers): x[64][128], 8 heads of 16: Q, K and V are
// x W^T + b (W[128][128]); per head softmax(Q K^T / 4) V; the heads concatenated and projected
// by Wo^T + bo. One process per corpus node: the three products read x through one node that
// forks it (flowhls's fork of a buffer with three readers), the max, exp, sum and divide of the
// softmax are nodes linked by FIFOs, each reading its row's max or sum once per row.
// opt1 keeps every product's reduction innermost, the weights transposed into arrays; opt2
// permutes the products (the projections i, k, j with their weights streamed transposed; the
// scores k, i, j with Q and K^T streamed by columns; attention times V i, k, j) and computes the
// output projection transposed (loops j, k, i), its bias and the last copy by columns.
HalideProgram mhsa(int opt) {
    Design d("kernel_mhsa");
    const int seq = 64, dim = 128, heads = 8, hd = 16;
    const bool o1 = opt == 1;
    ImageParam x = d.matrix("x", seq, dim);
    std::vector<ImageParam> b, w;
    for (const char *n : {"q", "k", "v", "o"}) {
        b.push_back(d.vector(std::string("b") + n, dim));
        w.push_back(d.matrix(std::string("W") + n, dim, dim));
    }
    Var c("c"), i("i"), j("j"), h("h");
    std::vector<Func> qkv;
    for (int t = 0; t < 3; t++) {
        std::string n = std::string(1, "qkv"[t]);
        Func m = o1 ? d.product("mm_" + n, x, false, d.transpose("W" + n + "T", w[t], true), 0, seq, dim, dim, "ijk",
                                8192)
                    : d.product("mm_" + n, x, false, d.stream_of("W" + n + "T_stream", w[t], 16384, true), 0, seq,
                                dim, dim, "ikj", 8192);
        qkv.push_back(d.array_node(d.map(n, m, bias(b[t], false), 0)));
    }
    // Q by head (h, i, d; opt2: h, d, i), K^T by head (h, d, j), V by head (h, i, d).
    Func qh("q_heads"), kt("k_heads"), vh("v_heads");
    if (o1) {
        qh(c, i, h) = qkv[0](h * hd + c, i);
    } else {
        qh(i, c, h) = qkv[0](h * hd + c, i);
    }
    d.stream_node(qh, 8192);
    kt(j, c, h) = qkv[1](h * hd + c, j);
    if (o1) {
        d.array_node(kt);
    } else {
        d.stream_node(kt, 8192);
    }
    vh(c, i, h) = qkv[2](h * hd + c, i);
    d.array_node(vh);
    if (!o1) vh.reorder(i, c, h);
    Func scores = o1 ? d.product("scores", qh, false, kt, heads, seq, seq, hd, "ijk", 32768)
                     : d.product("scores", qh, true, kt, heads, seq, seq, hd, "kij", 32768);
    Func scaled("scaled");
    scaled(j, i, h) = scores(j, i, h) / 4.0f;
    d.stream_node(scaled, 32768);
    Func mx = d.reduce_rows("row_max", scaled, seq, Expr(-INFINITY), [](Expr a, Expr v) { return Halide::max(a, v); },
                            512);
    Func ex = d.map_with_row("exp", scaled, mx, [](Expr v, Expr m) { return Halide::exp(v - m); }, 32768);
    Func sum = d.reduce_rows("row_sum", ex, seq, Expr(0.0f), [](Expr a, Expr v) { return a + v; }, 512);
    Func p = d.map_with_row("softmax", ex, sum, [](Expr v, Expr s) { return v / s; }, 32768);
    Func att = o1 ? d.product("attention", p, false, vh, heads, seq, hd, seq, "ijk", 0)
                  : d.product("attention", p, false, vh, heads, seq, hd, seq, "ikj", 0);
    // The heads concatenated: (h, i, d) -> (i, h, d), then streamed by rows (opt2: columns).
    Func cat("concat"), cs("concat_stream");
    cat(c, h, i) = att(c, i, h);
    cat.reorder(c, i, h);
    d.array_node(cat);
    if (o1) {
        cs(j, i) = cat(j % hd, j / hd, i);
    } else {
        cs(i, j) = cat(j % hd, j / hd, i);
    }
    d.stream_node(cs, 8192);
    Func wot = d.transpose("WoT", w[3], true);
    if (o1) {
        Func m = d.product("mm_o", cs, false, wot, 0, seq, dim, dim, "ijk", 8192);
        return d.finish(d.map("o", m, bias(b[3], false), 8192), seq, dim);
    }
    Func m = d.product("mm_o", cs, true, wot, 0, seq, dim, dim, "jki", 8192, true);
    Func o("o");
    ImageParam bo = b[3];
    o(i, j) = m(i, j) + bo(j);
    d.stream_node(o, 8192);
    return d.finish_transposed(o, seq, dim);
}

ExampleDef block_example(const std::string &name, const std::string &description,
                         const std::function<HalideProgram(int)> &build, bool has_opt2 = true) {
    ExampleDef d;
    d.name = "shls_" + name;
    d.description = description;
    d.algorithm = [build](const std::string &) { return build(1); };
    d.schedules = {
        {"opt1", "Stream-HLS opt1: one process per node, products with k innermost", [](HalideProgram &) {},
         [build](const std::string &) { return build(1); }},
        {"opt2", "Stream-HLS opt2: the products' loops permuted to i, k, j (II 1)", [](HalideProgram &) {},
         [build](const std::string &) { return build(2); }},
    };
    if (!has_opt2) d.schedules.pop_back();
    return d;
}

}  // namespace

std::vector<ExampleDef> streamhls_examples() {
    return {k7mmseq_example(true), k7mmseq_example(false),
            block_example("resmlp", "Stream-HLS MLP block ResMLP: four linear layers with a residual connection",
                          resmlp),
            block_example("feedforward", "Stream-HLS transformer block FeedForward: two linear layers with ReLU",
                          feedforward),
            block_example("autoencoder", "Stream-HLS MLP block Autoencoder: six linear layers 784-256-128-64-128-256-784",
                          autoencoder),
            block_example("mhsa",
                          "Stream-HLS transformer block MultiHeadSelfAttention: 8 heads of 16 over 64 tokens of 128, "
                          "softmax in four nodes",
                          mhsa),
            // The CNN blocks' opt2 designs stream the padded input through a line-buffer-like
            // node with guarded loops (docs/calibration.md); only opt1 is reproduced.
            block_example("residual_block",
                          "Stream-HLS CNN block ResidualBlock: two 3x3 convolutions with batch norm, ReLU and a "
                          "residual connection",
                          residual_block, false),
            block_example("depthwise_separable_block",
                          "Stream-HLS CNN block DepthwiseSeparableConvBlock: depthwise 3x3 and pointwise "
                          "convolutions with batch norm and ReLU",
                          depthwise_separable_block, false)};
}

}  // namespace flowhls
