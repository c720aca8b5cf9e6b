import Foundation
import SkateCore
import Testing
@testable import SkateRide
import SkateTestSupport

@Suite struct PlanFileTests {
    /// The typed reading of a plan JSON (`PlanFile.Fields.plainPlan`) gives every shipped ride's
    /// plan exactly as the `JSONNode` tree reading does, and leaves the odd files to the tree.
    @Test func typedReadingGivesTheTreesPlan() throws {
        let rides = RideFixtures.shippedRides
        #expect(!rides.isEmpty)
        for ride in rides {
            let path = ride + "/plan.json"
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            let plain = try #require(PlanFile.Fields.plainPlan(data), "\(path): not read by the typed path")
            let tree = try PlanFile.treePlan(data, path: path)
            #expect(plain == tree, "\(path)")
            #expect(plain.from.lat.bitPattern == tree.from.lat.bitPattern && plain.to.lon.bitPattern == tree.to.lon.bitPattern)
            #expect(try PlanFile.load(path: path) == tree)
        }
        let odd: [(String, Bool)] = [
            (#"{"geometry":[[7.4,43.7],[7.5,43.8]],"mode":"smoothest","distance_m":722.9}"#, true),
            (#"{"geometry":[[7,43],[8,44,12]],"distance_m":700}"#, true),
            (#"{"geometry":[[7.4,43.7],[7.5,43.8]],"mode":7}"#, false),            // mode not a string: the tree ignores it
            (#"{"geometry":[[7.4,43.7],[7.5,43.8]],"distance_m":"far"}"#, false),
            (#"{"geometry":[[-0,43.7],[7.5,43.8]]}"#, false),                      // a zero end: the tree's integer 0
            (#"{"geometry":[[7.4,43.7],[7.5,"x"]]}"#, false),
            (#"{"geometry":[[7.4,43.7]]}"#, false),
            (#"{"geometry":[[7.4,43.7],[7.5,43.8]],}"#, true),                   // JSONDecoder takes the comma, tree too
            (#"[[7.4,43.7],[7.5,43.8]]"#, false),
        ]
        for (i, (text, typed)) in odd.enumerated() {
            let data = Data(text.utf8)
            let plain = PlanFile.Fields.plainPlan(data)
            #expect((plain != nil) == typed, "case \(i)")
            if let plain { #expect(plain == (try? PlanFile.treePlan(data, path: "p.json")), "case \(i)") }
        }
    }
}
