// published_table: bench/reference CSV files, embedded or from a directory.
#include "driver/PublishedFigures.h"
#include "flowhls/Error.h"
#include "support/EmbeddedFiles.h"

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
        std::vector<std::string> cells;
        size_t start = 0;
        while (true) {
            size_t comma = line.find(',', start);
            cells.push_back(line.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
            if (comma == std::string::npos) break;
            start = comma + 1;
        }
        rows.push_back(cells);
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
