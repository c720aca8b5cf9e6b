import FoundationEssentials
import Glibc
import SkateCore

/// The preview's choice between the routes planned (the alternatives drawn dimmed, `a` picks
/// the next one) and the step zoom (Enter on a highlighted step).
extension PreviewScreen {
    /// Smallest box a step zoom shows, metres on a side: a lift or a 10 m step would otherwise
    /// fill the map at the closest scale with nothing around it to recognise.
    public static let stepZoomMinMetres: Double = 120

    /// The overlay of the selected route: its classes, braking dashes, names and the
    /// destination's name, with the other routes dimmed under it.
    static func overlay(_ s: PreviewState, services: TUIServices) -> RouteOverlay {
        let plan = s.plan.plan
        var o = PlanOverlay.make(plan, hazards: PlanOverlay.near(plan, services.knownHazards), spots: PlanOverlay.near(plan, services.spots))
        o.endName = s.to
        o.alternatives = s.routes.enumerated().filter { $0.offset != s.selected }.map { PlanOverlay.make($0.element.plan).segments }
        return o
    }

    /// The preview with route `i` selected: summary, steps and map follow; the view stays.
    static func select(_ i: Int, in state: PreviewState, services: TUIServices) -> PreviewState {
        guard state.routes.indices.contains(i) else { return state }
        var s = state
        s.selected = i
        s.plan = s.routes[i]
        s.stepScroll = 0
        s.stepCursor = nil
        s.map.overlay = overlay(s, services: services)
        return s
    }

    /// The view fitted to step `index` of `plan` (at least `stepZoomMinMetres` across), centred on it.
    static func zoomed(_ vp: MapViewport, to plan: RoutePlan, step index: Int) -> MapViewport {
        guard plan.steps.indices.contains(index) else { return vp }
        let st = plan.steps[index]
        let pts = st.geometry.isEmpty ? plan.geometry(from: st.startDistance, to: st.startDistance + 1) : st.geometry
        guard !pts.isEmpty else { return vp }
        var box = BoundingBox.empty
        for p in pts { box.extend(lat: p.lat, lon: p.lon) }
        let c = box.center
        let half = stepZoomMinMetres / 2
        let dLat = half / 111_320.0
        let dLon = half / max(1, 111_320.0 * cos(c.lat * .pi / 180))
        box.extend(lat: c.lat - dLat, lon: c.lon - dLon)
        box.extend(lat: c.lat + dLat, lon: c.lon + dLon)
        var v = vp
        v.fit(box)
        return v
    }

    /// "route 2 of 3" when there is a choice, else "".
    static func routeLabel(_ s: PreviewState) -> String {
        s.routes.count > 1 ? "route \(s.selected + 1) of \(s.routes.count)" : ""
    }
}
