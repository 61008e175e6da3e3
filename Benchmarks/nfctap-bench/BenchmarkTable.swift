/// One line of the benchmark report.
struct BenchmarkRow {
    var group: String
    var name: String
    /// Measured value and its unit, e.g. (6, "exchanges").
    var measured: Double
    var unit: String
    /// The theoretical best for the same work, when there is one.
    var minimum: Double?
    var note: String = ""
}

/// Prints rows as a Markdown table (pasted into README.md), with measured/minimum ratios.
func printTable(_ rows: [BenchmarkRow]) {
    print("| group | case | measured | theoretical minimum | ratio | note |")
    print("|---|---|---|---|---|---|")
    for r in rows {
        let measured = format(r.measured) + " " + r.unit
        let minimum = r.minimum.map { format($0) + " " + r.unit } ?? "–"
        let ratio = r.minimum.flatMap { $0 > 0 ? format(r.measured / $0) + "×" : nil } ?? "–"
        print("| \(r.group) | \(r.name) | \(measured) | \(minimum) | \(ratio) | \(r.note) |")
    }
}

func format(_ v: Double) -> String {
    if v == v.rounded() && abs(v) < 1e9 { return String(Int(v)) }
    let scaled = (v * 100).rounded() / 100
    return String(scaled)
}
