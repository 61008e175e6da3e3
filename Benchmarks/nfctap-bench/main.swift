// nfctap-bench: exchanges and time per NDEF read with injected per-exchange latency, and more.
// Run: swift run -c release nfctap-bench   (figures go into README.md "Benchmarks")
runSubcommandIfAsked()  // `nfctap-bench <subcommand>`: BenchCommands.swift (scripts/bench.sh)
var rows: [BenchmarkRow] = []
// Each area appends its rows here (one file per area in this folder).
rows += type2BenchmarkRows()
rows += type4BenchmarkRows()
rows += type5BenchmarkRows()
rows += libnfcBenchmarkRows()
rows += sessionLatencyBenchmarkRows()
printTable(rows)
