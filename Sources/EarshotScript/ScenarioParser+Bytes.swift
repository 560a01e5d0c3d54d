extension ScenarioParser {
    /// Parses a script's bytes: UTF-8, with or without a byte order mark, any line endings.
    ///
    /// - Throws: `ScriptDiagnostics`; bytes that are not UTF-8 give one diagnostic at the first bad byte.
    public static func parse(bytes: [UInt8], path: String) throws(ScriptDiagnostics) -> ScenarioDocument {
        let source: String
        do throws(SourceText.InvalidByte) {
            source = try SourceText.decode(bytes)
        } catch {
            throw ScriptDiagnostics([
                ScriptDiagnostic(
                    location: SourceLocation(path: path, line: error.line, column: error.column), length: 1,
                    message: error.message, hint: SourceText.InvalidByte.hint, sourceLine: error.sourceLine)
            ])
        }
        return try parse(source: source, path: path)
    }

}
