import Foundation
import Translations

/// One named row of values in a chart; `valueLabel` words a value beside its bar when a chart has several series
/// ("12 participants"), given the value and its digits.
struct ChartSeries {
    let label: Message
    let values: [Int]
    var valueLabel: ((_ value: Int, _ digits: String) -> Message)?

    init(label: Message, values: [Int], valueLabel: ((Int, String) -> Message)? = nil) {
        (self.label, self.values, self.valueLabel) = (label, values, valueLabel)
    }
}

/// Charts drawn on the server as inline SVG: no script, so they print and work everywhere. Colours come from the
/// stylesheet (light, dark, forced colours); series differ by fill pattern or line dash and marker shape, and carry
/// direct labels, so nothing depends on telling colours apart. The SVG is an image labelled by its figure's title and
/// summary; the figure's data table carries the same numbers for screen readers and for copying.
///
/// Texts are in the reader's language and numbers in its digits. In a right-to-left language the drawing is mirrored
/// (bars grow from the right, time runs leftwards): every x is measured from the right, and each text keeps its
/// `text-anchor`, which the page's `dir="rtl"` makes count from the text's right end, so texts mirror with the shapes.
enum SVGChart {
    static let width = 720.0

    /// `<svg role="img">` around `content`, labelled by the elements with ids `labelledBy`.
    static func svg(height: Double, labelledBy: String, defs: String = "", _ content: String) -> String {
        """
        <svg class="chart__svg" role="img" aria-labelledby="\(labelledBy)" viewBox="0 0 \(format(width)) \(format(height))" \
        xmlns="http://www.w3.org/2000/svg" focusable="false">\(defs.isEmpty ? "" : "<defs>\(defs)</defs>")\(content)</svg>
        """
    }

    /// Pattern fills for up to three bar series: solid, diagonal hatching, dots. Ids are prefixed by the chart's id.
    static func patterns(_ id: String) -> String {
        """
        <pattern id="\(id)-fill-1" patternUnits="userSpaceOnUse" width="8" height="8">\
        <rect class="chart__pattern-ground" width="8" height="8"/><path class="chart__pattern-ink" d="M-2,2 L2,-2 M0,8 L8,0 M6,10 L10,6"/></pattern>\
        <pattern id="\(id)-fill-2" patternUnits="userSpaceOnUse" width="6" height="6">\
        <rect class="chart__pattern-ground" width="6" height="6"/><circle class="chart__pattern-dot" cx="3" cy="3" r="1.6"/></pattern>
        """
    }

    /// The fill attribute of a bar of series `index`.
    static func fill(_ id: String, series index: Int) -> String {
        index == 0 ? "class=\"chart__bar chart__bar--solid\"" : "class=\"chart__bar chart__bar--pattern\" fill=\"url(#\(id)-fill-\(index))\""
    }

    /// Round steps for an axis from 0 to at least `maximum`: 1, 2 or 5 times a power of ten.
    static func ticks(upTo maximum: Int, count: Int = 4) -> [Int] {
        guard maximum > 0 else { return [0, 1] }
        let rough = Double(maximum) / Double(count)
        let power = pow(10, floor(log10(rough)))
        let step = max(1, Int([1.0, 2.0, 5.0, 10.0].map { $0 * power }.first { $0 >= rough } ?? rough))
        return Array(stride(from: 0, through: ((maximum + step - 1) / step) * step, by: step))
    }

    static func text(_ value: String, x: Double, y: Double, anchor: String = "start", classes: String = "chart__text") -> String {
        "<text class=\"\(classes)\" x=\"\(format(x))\" y=\"\(format(y))\" text-anchor=\"\(anchor)\">\(escaped(value))</text>"
    }

    /// A point `x` from the chart's start, counted from the left, or from the right in a right-to-left language.
    static func x(_ x: Double, _ direction: TextDirection) -> Double { direction == .rightToLeft ? width - x : x }

    /// A rectangle starting `x` from the chart's start.
    static func rect(_ attributes: String, x: Double, y: Double, width: Double, height: Double, _ direction: TextDirection) -> String {
        let left = direction == .rightToLeft ? Self.width - x - width : x
        return "<rect \(attributes) x=\"\(format(left))\" y=\"\(format(y))\" width=\"\(format(width))\" height=\"\(format(height))\"/>"
    }

    static func line(x1: Double, y1: Double, x2: Double, y2: Double, classes: String) -> String {
        "<line class=\"\(classes)\" x1=\"\(format(x1))\" y1=\"\(format(y1))\" x2=\"\(format(x2))\" y2=\"\(format(y2))\"/>"
    }

    /// Text shortened to `limit` characters with an ellipsis (the full text is in the data table).
    static func shortened(_ text: String, to limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }

    static func format(_ value: Double) -> String {
        value.rounded() == value ? String(Int(value)) : String(format: "%.1f", value)
    }

    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }
}

/// Horizontal bars, one group per category and one bar per series, each labelled with its value (and its series when
/// there are several).
struct BarChart {
    let id: String
    let categories: [Message]
    let series: [ChartSeries]
    let translator: Translator

    private let labelWidth = 190.0, valueWidth = 150.0, barHeight = 18.0, barGap = 3.0, groupGap = 12.0, top = 34.0

    private var direction: TextDirection { translator.direction }
    private func x(_ value: Double) -> Double { SVGChart.x(value, direction) }

    func svg(labelledBy: String) -> String {
        let maximum = series.flatMap(\.values).max() ?? 0
        let ticks = SVGChart.ticks(upTo: maximum)
        let plotWidth = SVGChart.width - labelWidth - valueWidth
        let scale = plotWidth / Double(max(ticks.last ?? 1, 1))
        let groupHeight = Double(series.count) * (barHeight + barGap) - barGap + groupGap
        let plotHeight = Double(categories.count) * groupHeight
        var parts = [legend()]
        for tick in ticks {
            let tickX = x(labelWidth + Double(tick) * scale)
            parts.append(SVGChart.line(x1: tickX, y1: top - 4, x2: tickX, y2: top + plotHeight, classes: "chart__grid"))
            parts.append(SVGChart.text(translator.formats.digits(tick), x: tickX, y: top + plotHeight + 18, anchor: "middle",
                                       classes: "chart__text chart__text--small"))
        }
        for (row, category) in categories.enumerated() {
            let groupTop = top + Double(row) * groupHeight
            parts.append(SVGChart.text(SVGChart.shortened(translator.text(category), to: 24), x: x(labelWidth - 8),
                                       y: groupTop + (groupHeight - groupGap) / 2 + 5, anchor: "end"))
            for (index, values) in series.enumerated() {
                let y = groupTop + Double(index) * (barHeight + barGap), value = values.values[row]
                let barWidth = Double(value) * scale
                parts.append(SVGChart.rect(SVGChart.fill(id, series: index), x: labelWidth, y: y, width: barWidth, height: barHeight, direction))
                let digits = translator.formats.digits(value)
                let label = series.count > 1 ? values.valueLabel.map { translator.text($0(value, digits)) } ?? digits : digits
                parts.append(SVGChart.text(label, x: x(labelWidth + barWidth + 6), y: y + barHeight - 4, classes: "chart__text chart__text--small"))
            }
        }
        parts.append(SVGChart.line(x1: x(labelWidth), y1: top - 4, x2: x(labelWidth), y2: top + plotHeight, classes: "chart__axis"))
        return SVGChart.svg(height: top + plotHeight + 28, labelledBy: labelledBy, defs: series.count > 1 ? SVGChart.patterns(id) : "",
                            parts.joined())
    }

    /// A key for several series: a swatch of each fill and its name.
    private func legend() -> String {
        guard series.count > 1 else { return "" }
        var start = labelWidth, parts: [String] = []
        for (index, item) in series.enumerated() {
            let label = translator.text(item.label)
            parts.append(SVGChart.rect(SVGChart.fill(id, series: index), x: start, y: 6, width: 18, height: 14, direction))
            parts.append(SVGChart.text(label, x: x(start + 24), y: 18))
            start += 24 + Double(label.count) * 8 + 24
        }
        return parts.joined()
    }
}

/// Lines over periods, one per series, told apart by dash pattern and marker shape (circle, square, triangle) and
/// named at their last point.
struct LineChart {
    let id: String
    let periods: [Message]
    let series: [ChartSeries]
    let translator: Translator

    private let left = 64.0, right = 150.0, top = 16.0, plotHeight = 240.0

    private var direction: TextDirection { translator.direction }

    func svg(labelledBy: String) -> String {
        let maximum = series.flatMap(\.values).max() ?? 0
        let ticks = SVGChart.ticks(upTo: maximum)
        let plotWidth = SVGChart.width - left - right
        let yScale = plotHeight / Double(max(ticks.last ?? 1, 1))
        let step = periods.count > 1 ? plotWidth / Double(periods.count - 1) : 0
        func x(_ index: Int) -> Double { SVGChart.x(periods.count > 1 ? left + Double(index) * step : left + plotWidth / 2, direction) }
        func y(_ value: Int) -> Double { top + plotHeight - Double(value) * yScale }
        let (plotStart, plotEnd) = (SVGChart.x(left, direction), SVGChart.x(left + plotWidth, direction))
        var parts: [String] = []
        for tick in ticks {
            parts.append(SVGChart.line(x1: plotStart, y1: y(tick), x2: plotEnd, y2: y(tick), classes: "chart__grid"))
            parts.append(SVGChart.text(translator.formats.digits(tick), x: SVGChart.x(left - 8, direction), y: y(tick) + 5, anchor: "end",
                                       classes: "chart__text chart__text--small"))
        }
        let labelEvery = max(1, Int((Double(periods.count) / 6).rounded(.up)))
        for (index, period) in periods.enumerated() where index % labelEvery == 0 {
            parts.append(SVGChart.text(translator.text(period), x: x(index), y: top + plotHeight + 20, anchor: "middle",
                                       classes: "chart__text chart__text--small"))
        }
        for (index, item) in series.enumerated() {
            let points = item.values.enumerated().map { "\(SVGChart.format(x($0.offset))),\(SVGChart.format(y($0.element)))" }
            parts.append("<polyline class=\"chart__line chart__line--\(index)\" points=\"\(points.joined(separator: " "))\"/>")
            if item.values.count <= 60 {
                parts += item.values.enumerated().map { marker(index, x: x($0.offset), y: y($0.element)) }
            }
        }
        parts += directLabels(lastX: x(periods.count - 1), y: y)
        parts.append(SVGChart.line(x1: plotStart, y1: top + plotHeight, x2: plotEnd, y2: top + plotHeight, classes: "chart__axis"))
        return SVGChart.svg(height: top + plotHeight + 32, labelledBy: labelledBy, parts.joined())
    }

    /// Circle, square or triangle.
    private func marker(_ series: Int, x: Double, y: Double) -> String {
        let (cx, cy) = (SVGChart.format(x), SVGChart.format(y))
        switch series % 3 {
        case 0: return "<circle class=\"chart__marker\" cx=\"\(cx)\" cy=\"\(cy)\" r=\"4\"/>"
        case 1: return "<rect class=\"chart__marker\" x=\"\(SVGChart.format(x - 4))\" y=\"\(SVGChart.format(y - 4))\" width=\"8\" height=\"8\"/>"
        default:
            return "<path class=\"chart__marker\" d=\"M\(SVGChart.format(x)),\(SVGChart.format(y - 5)) L\(SVGChart.format(x + 5)),"
                + "\(SVGChart.format(y + 4)) L\(SVGChart.format(x - 5)),\(SVGChart.format(y + 4)) Z\"/>"
        }
    }

    /// Each series' name and last value beside its last point, moved apart so they never overlap.
    private func directLabels(lastX: Double, y: (Int) -> Double) -> [String] {
        var placed: [(index: Int, y: Double)] = series.enumerated().map { ($0.offset, y($0.element.values.last ?? 0)) }.sorted { $0.y < $1.y }
        for position in placed.indices.dropFirst() where placed[position].y - placed[position - 1].y < 16 {
            placed[position].y = placed[position - 1].y + 16
        }
        let outwards = direction == .rightToLeft ? -1.0 : 1.0
        return placed.flatMap { item -> [String] in
            let value = series[item.index].values.last ?? 0
            let label = Message("{series} {value}", context: "a chart line's name and its last value",
                                ["series": .message(series[item.index].label), "value": .text(translator.formats.digits(value))])
            return [marker(item.index, x: lastX + 14 * outwards, y: item.y),
                    SVGChart.text(translator.text(label), x: lastX + 24 * outwards, y: item.y + 5, classes: "chart__text chart__text--small")]
        }
    }
}
