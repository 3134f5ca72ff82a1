// random_schedule: seeded random legal schedules of an example's algorithm.
#include "examples/ExampleRegistry.h"
#include "flowhls/Error.h"
#include "frontend/halide/Intake.h"
#include "frontend/halide/Reference.h"

#include <algorithm>
#include <iostream>
#include <map>
#include <set>

namespace flowhls {

using namespace Halide::Internal;

namespace {

// xorshift64*: a small generator whose sequence is fixed by its seed on every platform.
class Rng {
public:
    explicit Rng(uint64_t seed) : state(seed * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull) {
        if (state == 0) state = 1;
    }
    uint64_t next() {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        return state * 0x2545f4914f6cdd1dull;
    }
    int below(int n) { return static_cast<int>(next() % static_cast<uint64_t>(n)); }
    bool chance(int percent) { return below(100) < percent; }

private:
    uint64_t state;
};

struct StagePlan {
    Halide::Func func;
    std::vector<std::string> loops;  // pure loop variables, innermost first
    bool inlined = false;
};

class RandomScheduler {
public:
    RandomScheduler(const HalideProgram &program, Rng &rng) : program(program), rng(rng) {}

    void run() {
        collect();
        for (const std::string &name : order) {
            StagePlan &s = plans.at(name);
            if (!outputs.count(name)) place(s);
            if (!s.inlined) shape_loops(s);
        }
    }

private:
    const HalideProgram &program;
    Rng &rng;
    std::map<std::string, StagePlan> plans;
    std::map<std::string, std::set<std::string>> callers;
    std::set<std::string> outputs;
    std::vector<std::string> order;  // consumers before producers

    void collect() {
        std::map<std::string, Function> env;
        for (const ProgramOutput &o : program.outputs) {
            outputs.insert(o.func.name());
            env.emplace(o.func.name(), o.func.function());
        }
        for (const Halide::Func &f : schedulable_stages(program)) env.emplace(f.name(), f.function());
        for (auto &kv : env) {
            StagePlan p;
            p.func = Halide::Func(kv.second);
            for (const Halide::Var &v : p.func.args()) p.loops.push_back(v.name());
            plans[kv.first] = p;
        }
        for (auto &kv : env) {
            for (auto &callee : find_direct_calls(kv.second)) {
                if (callee.first != kv.first && env.count(callee.first)) callers[callee.first].insert(kv.first);
            }
        }
        std::vector<std::string> realization = topological_order(env);
        order.assign(realization.rbegin(), realization.rend());
    }

    std::vector<std::string> topological_order(const std::map<std::string, Function> &env) {
        std::vector<std::string> out;
        std::set<std::string> done;
        std::function<void(const std::string &)> visit = [&](const std::string &n) {
            if (done.count(n)) return;
            done.insert(n);
            for (auto &callee : find_direct_calls(env.at(n))) {
                if (callee.first != n && env.count(callee.first)) visit(callee.first);
            }
            out.push_back(n);
        };
        for (auto &kv : env) visit(kv.first);
        return out;
    }

    // Consumers that own loops: callers, looking through inlined ones.
    void loop_owners(const std::string &name, std::set<std::string> &owners) {
        for (const std::string &c : callers[name]) {
            if (plans.at(c).inlined) loop_owners(c, owners);
            else owners.insert(c);
        }
    }

    void place(StagePlan &s) {
        bool has_updates = s.func.has_update_definition();
        int choice = rng.below(has_updates ? 2 : 3);
        if (choice == 2) {
            s.inlined = true;  // Halide's default
            return;
        }
        std::set<std::string> owners;
        loop_owners(s.func.name(), owners);
        // Computed inside one consumer's loops only when it is the only consumer that owns
        // loops: inside one of several, the others could not see it (an illegal draw).
        if (choice == 0 || owners.size() != 1) {
            s.func.compute_root();
            return;
        }
        StagePlan &consumer = plans.at(*owners.begin());
        // A loop level names the consumer's last stage: with update definitions (left unscheduled)
        // that is the update's loop nest, over the pure variables as declared.
        std::vector<std::string> loops = consumer.loops;
        if (consumer.func.has_update_definition()) {
            loops.clear();
            for (const Halide::Var &v : consumer.func.args()) loops.push_back(v.name());
        }
        int compute = rng.below(static_cast<int>(loops.size()));
        s.func.compute_at(consumer.func, Halide::Var(loops[compute]));
        // Storage at the compute level or further out (or at the root).
        int store = compute + rng.below(static_cast<int>(loops.size()) - compute + 1);
        if (store >= static_cast<int>(loops.size())) s.func.store_root();
        else s.func.store_at(consumer.func, Halide::Var(loops[store]));
    }

    // Split, reorder and unroll of the pure definition's loops.
    void shape_loops(StagePlan &s) {
        static const int factors[] = {2, 3, 4, 8};
        // Update definitions keep their default loop nest (an algorithm may have marked one
        // unscheduled already: pb_gesummv's final stage).
        for (int i = 0; i < s.func.num_update_definitions(); i++) {
            if (!s.func.update(i).get_schedule().touched()) s.func.update(i).unscheduled();
        }
        std::string unroll_candidate;
        if (rng.chance(70)) {
            int v = rng.below(static_cast<int>(s.loops.size()));
            int factor = factors[rng.below(4)];
            std::string base = s.loops[v];
            std::string outer = base + "_o", inner = base + "_i";
            s.func.split(Halide::Var(base), Halide::Var(outer), Halide::Var(inner), factor);
            s.loops[v] = inner;
            s.loops.insert(s.loops.begin() + v + 1, outer);
            if (factor <= 4) unroll_candidate = inner;
        }
        if (rng.chance(50) && s.loops.size() > 1) {
            for (size_t i = s.loops.size() - 1; i > 0; i--) {
                std::swap(s.loops[i], s.loops[rng.below(static_cast<int>(i) + 1)]);
            }
            std::vector<Halide::VarOrRVar> vars;
            for (const std::string &n : s.loops) vars.emplace_back(Halide::Var(n));
            s.func.reorder(vars);
        }
        if (!unroll_candidate.empty() && s.loops.front() == unroll_candidate && rng.chance(40)) {
            s.func.unroll(Halide::Var(unroll_candidate));
        }
    }
};

// Halide prints warnings about the candidates it lowers (for example "guaranteed to fail an
// assertion" for draws that are then rejected); they are noise for the user of a random
// schedule, so std::cerr is muted while candidates are tried.
class MuteStderr {
public:
    MuteStderr() : saved(std::cerr.rdbuf(nullptr)) {}
    ~MuteStderr() {
        std::cerr.rdbuf(saved);
        std::cerr.clear();
    }
    MuteStderr(const MuteStderr &) = delete;
    MuteStderr &operator=(const MuteStderr &) = delete;

private:
    std::streambuf *saved;
};

}  // namespace

HalideProgram random_schedule(const ExampleDef &def, uint64_t seed, const std::string &size) {
    MuteStderr mute;
    HalideProgram root = def.algorithm(size);
    schedule_all_root(root);
    ReferenceData expected = run_reference(root, random_inputs(root, seed));
    Rng rng(seed);
    const int attempts = 64;
    for (int attempt = 0; attempt < attempts; attempt++) {
        HalideProgram program = def.algorithm(size);
        try {
            RandomScheduler(program, rng).run();
            lower_for_hls(program, HlsTarget::Vitis);
            // Legal Halide can still read outside the inputs (a split wider than the region
            // it covers shifts inwards past the edge); running it finds out.
            // A schedule must not change what is computed (Halide 14 can get sliding windows
            // over split loops wrong); such draws are discarded too.
            if (same_outputs(run_reference(program, random_inputs(program, seed)), expected)) return program;
        } catch (const Halide::Error &) {
        } catch (const Error &) {
        }
    }
    throw Error("no legal random schedule of '" + def.name + "' found from seed " + std::to_string(seed) + " in " +
                std::to_string(attempts) + " attempts");
}

}  // namespace flowhls
