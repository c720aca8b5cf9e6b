/// The open list of `Search` (and `ShortestLine`): a 4-ary min-heap in one array.
///
/// Why not swift-collections' `Heap` (which the other searches use): it is a min-max heap, and
/// its `trickleDownMin` — a child and up to four grandchildren compared per step, for a maximum
/// the router never asks for — was 9–10 % of `skateroute bench`'s Heidelberg routing time (perf).
/// The router only inserts and pops the minimum.
///
/// Four children per node, not two (issue 30, fourth round): a pop walks half as many levels,
/// and a node's children are 64 contiguous bytes of `Search.QItem`s (one or two cache lines)
/// instead of a pair per level. The binary heap's pop was about a quarter of `Search.advance`'s
/// own time on Heidelberg (perf: the loads of each level's children missing the cache).
/// `Search.QItem`s are totally ordered (cost, then state number), so the order they come out in
/// — and every route — is the same in any correct min-heap: elements that compare equal are
/// equal values.
struct SearchHeap<Element: Comparable> {
    private var items: ContiguousArray<Element> = []

    var isEmpty: Bool { items.isEmpty }
    var count: Int { items.count }

    /// The least element, or nil when empty.
    @inline(__always) var min: Element? { items.first }

    mutating func insert(_ x: Element) {
        items.append(x)
        items.withUnsafeMutableBufferPointer { h in
            var i = h.count - 1
            while i > 0 {
                let p = (i - 1) >> 2
                guard x < h[p] else { break }
                h[i] = h[p]
                i = p
            }
            h[i] = x
        }
    }

    /// Removes and returns the least element.
    @discardableResult mutating func popMin() -> Element? {
        guard let last = items.popLast() else { return nil }
        guard !items.isEmpty else { return last }
        let top = items[0]
        items.withUnsafeMutableBufferPointer { h in
            // Sift the hole at the root down, moving the least child up, then place `last`.
            let n = h.count
            var i = 0
            while true {
                let first = 4 * i + 1
                if first >= n { break }
                var c = first
                var least = h[first]
                let end = Swift.min(first + 4, n)
                var j = first + 1
                while j < end {
                    if h[j] < least { least = h[j]; c = j }
                    j += 1
                }
                guard least < last else { break }
                h[i] = least
                i = c
            }
            h[i] = last
        }
        return top
    }
}
