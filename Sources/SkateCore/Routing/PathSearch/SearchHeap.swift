/// The open list of `Search`: a plain binary min-heap in one array.
///
/// Why not swift-collections' `Heap` (which the other searches use): it is a min-max heap, and
/// its `trickleDownMin` — a child and up to four grandchildren compared per step, for a maximum
/// the router never asks for — was 9–10 % of `skateroute bench`'s Heidelberg routing time (perf).
/// The router only inserts and pops the minimum. `Search.QItem`s are totally ordered (cost, then
/// state number), so the order they come out in — and every route — is the same in either heap.
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
                let p = (i - 1) >> 1
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
            // Sift the hole at the root down, moving the smaller child up, then place `last`.
            let n = h.count
            var i = 0
            while true {
                let l = 2 * i + 1
                if l >= n { break }
                let r = l + 1
                let c = r < n && h[r] < h[l] ? r : l
                guard h[c] < last else { break }
                h[i] = h[c]
                i = c
            }
            h[i] = last
        }
        return top
    }
}
