// flowhls-filecheck: checks text on standard input against the CHECK lines of a file.
//
//   flowhls opt in.graph --pass=dead-code | flowhls-filecheck in.graph
//
// Directives (in comment lines of the check file, LLVM FileCheck's names and meaning):
//   CHECK: TEXT       a later line contains TEXT
//   CHECK-NEXT: TEXT  the line right after the previous match contains TEXT
//   CHECK-SAME: TEXT  the previous match's line contains TEXT after the previous match
//   CHECK-NOT: TEXT   no line between the previous match and the next match contains TEXT
//   CHECK-EMPTY:      the line right after the previous match is empty
// TEXT is a plain substring (no regular expressions); runs of spaces and tabs in TEXT and in
// the input compare equal to one space. Exit code 0 when every directive holds, else 1 with
// the failing directive, its line and the input around the position reached.
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Directive {
    std::string kind;  // CHECK, CHECK-NEXT, CHECK-SAME, CHECK-NOT, CHECK-EMPTY
    std::string text;
    int line = 0;
};

std::string squeeze(const std::string &s) {
    std::string out;
    bool space = false;
    for (char c : s) {
        if (c == ' ' || c == '\t') {
            space = true;
            continue;
        }
        if (space && !out.empty()) out += ' ';
        space = false;
        out += c;
    }
    return out;
}

std::vector<Directive> read_directives(const std::string &path) {
    std::ifstream in(path);
    if (!in) {
        std::cerr << "flowhls-filecheck: cannot read " << path << "\n";
        std::exit(2);
    }
    std::vector<Directive> out;
    std::string line;
    int n = 0;
    static const char *kinds[] = {"CHECK-NEXT:", "CHECK-SAME:", "CHECK-NOT:", "CHECK-EMPTY:", "CHECK:"};
    while (std::getline(in, line)) {
        n++;
        for (const char *k : kinds) {
            size_t at = line.find(k);
            if (at == std::string::npos) continue;
            std::string kind(k);
            kind.pop_back();
            out.push_back({kind, squeeze(line.substr(at + kind.size() + 1)), n});
            break;
        }
    }
    return out;
}

[[noreturn]] void fail(const std::string &path, const Directive &d, const std::vector<std::string> &input, size_t at,
                       const std::string &why) {
    std::cerr << path << ":" << d.line << ": " << d.kind << ": " << d.text << "\n  " << why << "\n  input near line "
              << at + 1 << ":\n";
    for (size_t i = at; i < input.size() && i < at + 8; i++) std::cerr << "    " << input[i] << "\n";
    std::exit(1);
}

}  // namespace

int main(int argc, char **argv) {
    if (argc != 2) {
        std::cerr << "usage: flowhls-filecheck CHECK-FILE < INPUT\n";
        return 2;
    }
    std::string path = argv[1];
    std::vector<Directive> directives = read_directives(path);
    if (directives.empty()) {
        std::cerr << path << ": no CHECK directives\n";
        return 2;
    }
    std::vector<std::string> input, squeezed;
    std::string line;
    while (std::getline(std::cin, line)) {
        input.push_back(line);
        squeezed.push_back(squeeze(line));
    }
    // The next line a CHECK may match, the line and column of the previous match, and the
    // CHECK-NOTs waiting for the next match.
    size_t next = 0, last_line = 0, last_end = 0;
    bool matched = false;
    std::vector<const Directive *> nots;
    auto check_nots = [&](size_t from, size_t to) {
        for (const Directive *n : nots) {
            for (size_t i = from; i < to && i < squeezed.size(); i++) {
                if (squeezed[i].find(n->text) != std::string::npos) fail(path, *n, input, i, "found where it must not be");
            }
        }
        nots.clear();
    };
    for (const Directive &d : directives) {
        if (d.kind == "CHECK-NOT") {
            nots.push_back(&d);
        } else if (d.kind == "CHECK") {
            size_t i = next;
            while (i < squeezed.size() && squeezed[i].find(d.text) == std::string::npos) i++;
            if (i == squeezed.size()) fail(path, d, input, next, "not found");
            check_nots(next, i);
            last_line = i;
            last_end = squeezed[i].find(d.text) + d.text.size();
            next = i + 1;
            matched = true;
        } else if (d.kind == "CHECK-NEXT" || d.kind == "CHECK-EMPTY") {
            if (!matched) fail(path, d, input, 0, "needs a CHECK before it");
            size_t i = last_line + 1;
            bool ok = i < squeezed.size() &&
                      (d.kind == "CHECK-EMPTY" ? squeezed[i].empty() : squeezed[i].find(d.text) != std::string::npos);
            if (!ok) fail(path, d, input, i < input.size() ? i : last_line, "not on the next line");
            check_nots(next, i);
            last_line = i;
            last_end = d.kind == "CHECK-EMPTY" ? 0 : squeezed[i].find(d.text) + d.text.size();
            next = i + 1;
        } else {  // CHECK-SAME
            if (!matched) fail(path, d, input, 0, "needs a CHECK before it");
            size_t at = squeezed[last_line].find(d.text, last_end);
            if (at == std::string::npos) fail(path, d, input, last_line, "not on the same line after the previous match");
            last_end = at + d.text.size();
        }
    }
    check_nots(next, squeezed.size());
    return 0;
}
