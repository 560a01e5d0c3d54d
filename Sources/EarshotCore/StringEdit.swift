/// How one string became another: the bytes between a kept prefix and a kept suffix were replaced. Typing one
/// character into a long field is then one character, not a copy of the field.
///
/// Offsets count UTF-8 bytes and fall on Unicode scalar boundaries, so applying an edit splices bytes and gives
/// back exactly the new string's bytes.
public struct StringEdit: Hashable, Sendable {
    /// UTF-8 bytes kept from the start of the old string.
    public var prefix: Int
    /// UTF-8 bytes of the old string replaced (after the prefix).
    public var removed: Int
    /// What replaces them.
    public var inserted: String

    /// The edit from `old` to `new`; nil when a string has no contiguous UTF-8 storage to compare.
    public init?(from old: String, to new: String) {
        var old = old
        var new = new
        old.makeContiguousUTF8()
        new.makeContiguousUTF8()
        let found = old.utf8.withContiguousStorageIfAvailable { oldBytes in
            new.utf8.withContiguousStorageIfAvailable { newBytes in Self.bounds(oldBytes, newBytes) }
        }
        guard let bounds = found.flatMap({ $0 }) else { return nil }
        prefix = bounds.prefix
        removed = old.utf8.count - bounds.prefix - bounds.suffix
        let utf8 = new.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: bounds.prefix)
        let end = utf8.index(utf8.endIndex, offsetBy: -bounds.suffix)
        inserted = String(new[start..<end])
    }

    /// Replaces the edited bytes of `string` (the edit's old string) in place.
    public func apply(to string: inout String) {
        let utf8 = string.utf8
        // Offsets past the end (an edit applied to a string it was not made from) stop at the end.
        let start = utf8.index(utf8.startIndex, offsetBy: prefix, limitedBy: utf8.endIndex) ?? utf8.endIndex
        let end = utf8.index(start, offsetBy: removed, limitedBy: utf8.endIndex) ?? utf8.endIndex
        string.replaceSubrange(start..<end, with: inserted)
    }

    /// The longest common prefix, then the longest common suffix of what is left, both on scalar boundaries.
    static func bounds(_ old: UnsafeBufferPointer<UInt8>, _ new: UnsafeBufferPointer<UInt8>) -> (
        prefix: Int, suffix: Int
    ) {
        let shorter = min(old.count, new.count)
        var prefix = 0
        // Eight bytes at a time, then one: typing into a long field compares the whole field each keystroke.
        if let oldStart = old.baseAddress, let newStart = new.baseAddress {
            while prefix + 8 <= shorter,
                UnsafeRawPointer(oldStart + prefix).loadUnaligned(as: UInt64.self)
                    == UnsafeRawPointer(newStart + prefix).loadUnaligned(as: UInt64.self)
            {
                prefix += 8
            }
        }
        while prefix < shorter && old[prefix] == new[prefix] { prefix += 1 }
        func isContinuation(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: Int) -> Bool {
            offset < bytes.count && bytes[offset] & 0xC0 == 0x80
        }
        while prefix > 0 && (isContinuation(old, prefix) || isContinuation(new, prefix)) { prefix -= 1 }
        var suffix = 0
        while suffix < shorter - prefix && old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
        while suffix > 0 && (isContinuation(old, old.count - suffix) || isContinuation(new, new.count - suffix)) {
            suffix -= 1
        }
        return (prefix, suffix)
    }
}
