import SkateCore

/// The store's exports use the same hand-written, key-sorted JSON as the plan formats.
public typealias JSONValue = JSONText
