// published_table: bench/reference CSV files, embedded or from a directory.
#include "driver/PublishedFigures.h"
#include "flowhls/Error.h"
#include "support/EmbeddedFiles.h"
#include "support/Text.h"

#include <fstream>
#include <sstream>

namespace flowhls {

CsvTable parse_csv(const std::string &text) {
    CsvTable rows;
    std::stringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty()) continue;
        rows.push_back(split_fields(line, ','));
    }
    return rows;
}

CsvTable published_table(const std::string &name, const std::string &dir) {
    if (!dir.empty()) {
        std::ifstream in(dir + "/" + name);
        if (!in) throw Error("cannot read published figures '" + dir + "/" + name + "'");
        std::stringstream text;
        text << in.rdbuf();
        return parse_csv(text.str());
    }
    for (const EmbeddedFile &f : reference_files()) {
        if (f.path == name) return parse_csv(f.contents);
    }
    throw Error("no published figures '" + name + "' in this build");
}

}  // namespace flowhls
