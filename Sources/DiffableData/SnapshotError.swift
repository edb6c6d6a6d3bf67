/// Why a snapshot refused a mutation; every case names the identifier and the operation.
///
/// UIKit traps on these with terse messages. The trapping mutations here stop with this
/// text; the `try` variants throw it so an app building a snapshot from user data can
/// show the problem instead of crashing.
public enum SnapshotError: Error, Hashable, Sendable, CustomStringConvertible {
    /// An item identifier that is already in the snapshot (or twice in one call).
    case duplicateItem(item: String, operation: String, existing: String)
    /// A section identifier that is already in the snapshot (or twice in one call).
    case duplicateSection(section: String, operation: String)
    /// An item identifier the snapshot does not hold.
    case itemNotFound(item: String, operation: String)
    /// A section identifier the snapshot does not hold.
    case sectionNotFound(section: String, operation: String)
    /// Items appended with no section named while the snapshot has no section.
    case noSection(operation: String)
    /// An item or section moved relative to itself.
    case anchorIsSubject(identifier: String, operation: String)

    public var description: String {
        switch self {
        case let .duplicateItem(item, operation, existing):
            "\(operation): item identifier \(item) is already \(existing); item identifiers must be unique across all sections"
        case let .duplicateSection(section, operation):
            "\(operation): section identifier \(section) is already in the snapshot; section identifiers must be unique"
        case let .itemNotFound(item, operation):
            "\(operation): item identifier \(item) is not in the snapshot"
        case let .sectionNotFound(section, operation):
            "\(operation): section identifier \(section) is not in the snapshot"
        case let .noSection(operation):
            "\(operation): the snapshot has no section to append to; call appendSections(_:) first or name a section"
        case let .anchorIsSubject(identifier, operation):
            "\(operation): \(identifier) cannot be moved relative to itself"
        }
    }

    static func name(_ value: some Any) -> String {
        let text = String(reflecting: value)
        return text.count > 80 ? String(text.prefix(77)) + "..." : text
    }
}
