// The listing subcommands: examples, passes, generators, devices, onnx-ops.
#include "driver/cli/Command.h"
#include "flowhls/Compiler.h"
#include "flowhls/Examples.h"
#include "flowhls/Generators.h"
#include "flowhls/Onnx.h"

#include <iostream>
#include <memory>

namespace flowhls::cli {

Command examples_command(CLI::App &app) {
    CLI::App *sub = app.add_subcommand("examples", "list the bundled examples: name, schedules, description");
    return {sub, [] {
                for (const ExampleInfo &e : list_examples()) {
                    std::string schedules;
                    for (const std::string &s : e.schedules) schedules += (schedules.empty() ? "" : ",") + s;
                    std::string sizes;
                    for (const std::string &z : e.sizes) sizes += (sizes.empty() ? "  sizes: " : ",") + z;
                    std::cout << e.name << "  schedules: " << schedules << ",random:SEED" << sizes << "  "
                              << e.description << "\n";
                }
                return 0;
            }};
}

Command passes_command(CLI::App &app) {
    CLI::App *sub = app.add_subcommand("passes", "list the optimization passes in pipeline order");
    return {sub, [] {
                for (const PassDescription &p : describe_passes()) {
                    std::string name = p.name;
                    name.resize(20, ' ');
                    std::cout << name << (p.required ? "required  " : "optional  ") << p.summary << "\n";
                }
                return 0;
            }};
}

Command generators_command(CLI::App &app) {
    auto plugins = std::make_shared<std::vector<std::string>>();
    CLI::App *sub = app.add_subcommand("generators", "list the registered Halide Generators");
    sub->add_option("--plugin", *plugins, "shared library with Halide Generators to load (repeatable)")
        ->allow_extra_args(false);
    return {sub, [plugins] {
                for (const std::string &g : list_generators(*plugins)) std::cout << g << "\n";
                return 0;
            }};
}

Command devices_command(CLI::App &app) {
    CLI::App *sub = app.add_subcommand("devices", "list the FPGA parts of the device library");
    return {sub, [] {
                for (const std::string &d : device_list()) std::cout << d << "\n";
                return 0;
            }};
}

Command onnx_ops_command(CLI::App &app) {
    CLI::App *sub = app.add_subcommand("onnx-ops", "list the ONNX op types flowhls converts");
    return {sub, [] {
                for (const std::string &op : supported_onnx_ops()) std::cout << op << "\n";
                return 0;
            }};
}

}  // namespace flowhls::cli
