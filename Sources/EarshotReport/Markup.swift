/// A fragment of HTML, SVG or XML that escapes by construction: the one way the review page and JUnit are written.
///
/// A fragment can only come from escaped text (``text(_:)``), an element whose attribute values are escaped and
/// whose name keeps only name characters (``element(_:_:_:)``, ``empty(_:_:)``), a compile-time constant
/// (``trusted(_:)``: the style sheet, the page's script, a doctype), or other fragments joined. No user text
/// reaches the output unescaped, whatever it holds (`</title><script>`, quotes, ampersands).
///
/// Layout whitespace is explicit (``newline``), so the output is byte for byte what the renderer asks for.
public struct Markup: Sendable, Equatable, CustomStringConvertible {
    /// The fragment as text.
    public private(set) var rendered: String

    private init(rendered: String) { self.rendered = rendered }

    /// Nothing.
    public static let none = Markup(rendered: "")

    /// A line break between elements.
    public static let newline = Markup(rendered: "\n")

    /// `count` spaces, for indenting XML.
    public static func spaces(_ count: Int) -> Markup { Markup(rendered: String(repeating: " ", count: max(0, count))) }

    /// `text`, escaped: `&`, `<`, `>`, `"` and `'` become references and control characters are dropped.
    public static func text(_ text: String) -> Markup { Markup(rendered: escape(text)) }

    /// A constant written as is. Only a string literal can be trusted: nothing computed can pass through here.
    public static func trusted(_ constant: StaticString) -> Markup { Markup(rendered: constant.description) }

    /// `<name a="v">children</name>`. An attribute whose value is nil is left out.
    public static func element(_ name: String, _ attributes: [(String, String?)] = [], _ children: [Markup] = [])
        -> Markup
    {
        let tag = safeName(name)
        return Markup(rendered: "<" + tag + attributeText(attributes) + ">" + children.joined().rendered + "</\(tag)>")
    }

    /// `<name a="v"/>`: an element with no content (a void HTML element, an empty SVG or XML one).
    public static func empty(_ name: String, _ attributes: [(String, String?)] = []) -> Markup {
        Markup(rendered: "<" + safeName(name) + attributeText(attributes) + "/>")
    }

    /// `<?xml version="1.0" encoding="UTF-8"?>` and a line break: an XML document's declaration.
    public static let xmlDeclaration = trusted("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")

    /// Two fragments one after the other.
    public static func + (lhs: Markup, rhs: Markup) -> Markup { Markup(rendered: lhs.rendered + rhs.rendered) }

    /// Appends a fragment.
    public static func += (lhs: inout Markup, rhs: Markup) { lhs.rendered += rhs.rendered }

    public var description: String { rendered }

    private static func attributeText(_ attributes: [(String, String?)]) -> String {
        var text = ""
        for (name, value) in attributes {
            guard let value else { continue }
            text += " " + safeName(name) + "=\"" + escape(value) + "\""
        }
        return text
    }

    /// An element or attribute name keeps only letters, digits, `-`, `_` and `:`.
    private static func safeName(_ name: String) -> String {
        String(
            name.unicodeScalars.filter {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-"
                    || $0 == "_" || $0 == ":"
            })
    }

    /// `text` escaped for HTML and XML text and for attribute values in either quote; control characters
    /// (other than line feed and tab) dropped, since XML 1.0 cannot carry them.
    public static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default:
                if scalar.value < 0x20, scalar != "\n", scalar != "\t" { continue }
                if scalar.value == 0x7F { continue }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

extension Sequence where Element == Markup {
    /// The fragments one after the other, with `separator` between them.
    public func joined(separator: Markup = .none) -> Markup {
        var result = Markup.none
        for (index, fragment) in enumerated() {
            if index > 0 { result += separator }
            result += fragment
        }
        return result
    }
}
