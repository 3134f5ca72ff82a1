// Tests of check_emittable: every construct the printer cannot express is refused before printing.
#include "PreparedGraph.h"
#include "TestSupport.h"
#include "emit/PrepareEmission.h"
#include "emit/bambu/BambuEmitter.h"
#include "emit/vitis/VitisEmitter.h"
#include "flowhls/Error.h"

#include <gtest/gtest.h>

namespace flowhls {
namespace {

using namespace Halide;
using namespace Halide::Internal;

Expr var(Type t, const std::string &n) { return Variable::make(t, n); }
Expr x() { return var(Int(32), "x"); }

Stmt store(const std::string &buffer, Expr value, Expr index, Expr predicate = const_true()) {
    return Store::make(buffer, std::move(value), std::move(index), Parameter(), std::move(predicate),
                       ModulusRemainder());
}

Stmt loop(Stmt body, ForType type = ForType::Serial) {
    return For::make("x", 0, 4, type, DeviceAPI::None, std::move(body));
}

CDialect bambu_dialect() { return bambu_kernel_style().dialect; }

// The message of the Error check_printable throws for `s` ("" when it accepts it); the
// printer, given the same statement, must not report it as a user error.
std::string refusal(const Stmt &s, const CDialect &dialect) {
    try {
        check_printable(s, dialect);
    } catch (const Error &e) {
        std::ostringstream os;
        try {
            CPrinter(dialect).stmt(s, os, 0);
            ADD_FAILURE() << "the printer printed what the check refuses: " << e.what();
        } catch (const Error &) {
            ADD_FAILURE() << "the printer raised a user error (legality is check_printable's)";
        } catch (const std::logic_error &) {  // the printer's internal error: the check did not run
        }
        return e.what();
    }
    return "";
}

::testing::AssertionResult refused_with(const Stmt &s, const CDialect &dialect, const std::string &text) {
    std::string message = refusal(s, dialect);
    if (message.find(text) != std::string::npos) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "expected an error containing '" << text << "', got '" << message << "'";
}

TEST(PrepareEmission, AcceptsWhatThePrinterPrints) {
    Stmt s = loop(store("o", Cast::make(Float(32), x()) * 2.0f, x()));
    EXPECT_EQ(refusal(s, CDialect{}), "");
    Stmt vector = store("o", Broadcast::make(1.0f, 4), Ramp::make(0, 1, 4), const_true(4));
    EXPECT_EQ(refusal(vector, bambu_dialect()), "");
}

TEST(PrepareEmission, UnsupportedType) {
    Stmt s = store("o", Cast::make(Float(16), Cast::make(Float(32), x())), x());
    EXPECT_TRUE(refused_with(s, CDialect{}, "type float16 is not supported by the C emitter"));
}

TEST(PrepareEmission, VectorCodeWithoutVectors) {
    Stmt s = store("o", Broadcast::make(1.0f, 4), Ramp::make(0, 1, 4), const_true(4));
    EXPECT_TRUE(refused_with(s, CDialect{}, "vector code cannot be printed for this target"));
}

TEST(PrepareEmission, VectorValueOutsideAVectorStatement) {
    Stmt s = IfThenElse::make(Ramp::make(0, 1, 4) < 3, store("o", 1.0f, 0));
    EXPECT_TRUE(refused_with(s, bambu_dialect(), "vector expression cannot be printed as C for this target"));
}

TEST(PrepareEmission, ShufflesAndReductions) {
    Expr reduce = VectorReduce::make(VectorReduce::Add, Broadcast::make(1.0f, 4), 1);
    Stmt s = store("o", reduce, 0);
    EXPECT_TRUE(refused_with(s, bambu_dialect(), "vector shuffles and reductions are not supported"));
}

TEST(PrepareEmission, PredicatedScalarLoadAndStore) {
    Expr guarded = Load::make(Float(32), "in", x(), Halide::Buffer<>(), Parameter(), x() < 2, ModulusRemainder());
    EXPECT_TRUE(refused_with(loop(store("o", guarded, x())), CDialect{}, "predicated load cannot be printed as C"));
    EXPECT_TRUE(refused_with(loop(store("o", 1.0f, x(), x() < 2)), CDialect{}, "predicated store cannot be printed as C"));
}

TEST(PrepareEmission, UnsupportedCall) {
    Expr ext = Call::make(Int(32), "my_extern", {Expr(1)}, Call::Extern);
    EXPECT_TRUE(refused_with(store("o", ext, 0), CDialect{}, "call to 'my_extern' is not supported by the C emitter"));
    EXPECT_THROW(check_printable(ext, CDialect{}), Error);
}

TEST(PrepareEmission, ExpressionWithoutACForm) {
    Stmt s = store("o", StringImm::make("s"), 0);
    EXPECT_TRUE(refused_with(s, CDialect{}, "expression cannot be printed as C"));
}

TEST(PrepareEmission, ParallelLoopWithoutOpenMp) {
    Stmt s = loop(store("o", 1.0f, x()), ForType::Parallel);
    EXPECT_TRUE(refused_with(s, CDialect{}, "parallel loop 'x' cannot be printed for this target"));
    EXPECT_EQ(refusal(s, bambu_dialect()), "");
}

TEST(PrepareEmission, StatementWithoutACForm) {
    Stmt s = AssertStmt::make(x() < 4, Expr(1));
    EXPECT_TRUE(refused_with(s, CDialect{}, "statement cannot be printed as C"));
}

// A graph with a parallel loop: refused for Vitis by the check the driver runs before it
// emits or writes anything, printed for PandA-Bambu.
TEST(PrepareEmission, GraphCheckedPerTargetBeforeEmission) {
    FilterGraph g = test::prepared_graph(test::small_program(), false, {}, HlsTarget::Bambu);
    ASSERT_FALSE(g.filters.empty());
    EXPECT_NO_THROW(check_emittable(g, HlsTarget::Vitis));
    EXPECT_NO_THROW(check_emittable(g, HlsTarget::Bambu));
    Filter &f = g.filters.front();
    f.body = For::make("p", 0, 1, ForType::Parallel, DeviceAPI::None, f.body);
    try {
        check_emittable(g, HlsTarget::Vitis);
        ADD_FAILURE() << "a parallel loop passed the Vitis check";
    } catch (const Error &e) {
        EXPECT_NE(std::string(e.what()).find("parallel loop 'p'"), std::string::npos) << e.what();
    }
    EXPECT_NO_THROW(check_emittable(g, HlsTarget::Bambu));
    EXPECT_NO_THROW(emit_bambu_files(g, ProjectSettings()));
    EXPECT_THROW(emit_vitis_files(g, ProjectSettings()), std::logic_error);
}

}  // namespace
}  // namespace flowhls
