/// The costing a map's derived tables were computed under, as one 64-bit hash stored in the map
/// (`MapSection.fingerprintId`): every mode's weights (`ModeWeights.table`, by field name and
/// value), the mode list, the shared costing constants, the physics and timing constants and a
/// formula version. A loaded map whose fingerprint differs keeps its base arrays and recomputes
/// everything derived in memory (as an in-memory map does); `map info` says so.
///
/// To keep it honest: a new weight goes into `ModeWeights.fingerprintFields` (a test compares
/// that list with the struct's fields by reflection, so a weight left out fails it; reflection
/// itself cost 0.4 ms of every process start: `Mirror` demangles each field's type); a new
/// shared constant goes into `constants` below; a change to a formula (`SkateCosting`,
/// `SkatePhysics`, `MapDerived`, `Landmarks`, the tag roughness table) bumps `formulaVersion`.
public enum CostingFingerprint {
    /// Bump when a cost, speed, roughness or landmark formula changes without a constant changing.
    public static let formulaVersion: UInt64 = 3

    /// Shared constants the derived tables depend on, by name.
    static var constants: [(String, Double)] {
        [
            ("againstOnewayFactor", CostingConstants.againstOnewayFactor), ("turnSeconds", CostingConstants.turnSeconds),
            ("uTurnSeconds", CostingConstants.uTurnSeconds), ("flowGradeMin", CostingConstants.flowGradeMin),
            ("flowGradeMax", CostingConstants.flowGradeMax), ("brakingRiskFromPct", CostingConstants.brakingRiskFromPct),
            ("sharpTurnDegrees", CostingConstants.sharpTurnDegrees), ("sharpTurnDownhillPct", CostingConstants.sharpTurnDownhillPct),
            ("roughnessFloor", CostingConstants.roughnessFloor), ("crustyRMS", CostingConstants.crustyRMS),
            ("maxContinuousCrusty", CostingConstants.maxContinuousCrusty),
            ("gravity", SkatePhysics.gravity), ("mass", SkatePhysics.mass), ("airDensity", SkatePhysics.airDensity),
            ("dragArea", SkatePhysics.dragArea), ("baseRollingResistance", SkatePhysics.baseRollingResistance),
            ("rollingFreeRMS", SkatePhysics.rollingFreeRMS), ("rollingPerG", SkatePhysics.rollingPerG),
            ("pushSpeed", SkatePhysics.pushSpeed), ("walkSpeed", SkatePhysics.walkSpeed), ("walkGradePct", SkatePhysics.walkGradePct),
            ("walkDownGradePct", SkatePhysics.walkDownGradePct), ("speedCap", SkatePhysics.speedCap),
            ("crustySpeed", SkatePhysics.crustySpeed), ("stepsSpeed", SkatePhysics.stepsSpeed), ("pushPower", SkatePhysics.pushPower),
            ("liftWaitSeconds", ConnectorTiming.liftWaitSeconds), ("liftRideSeconds", ConnectorTiming.liftRideSeconds),
            ("escalatorBoardSeconds", ConnectorTiming.escalatorBoardSeconds), ("escalatorSpeed", ConnectorTiming.escalatorSpeed),
            ("dismountSeconds", StairsCost.dismountSeconds), ("stairsSecondsPerMetre", StairsCost.secondsPerMetre),
            ("rampShare", StairsCost.rampShare), ("treadMetres", StairsCost.treadMetres),
            ("forbiddenEdgeSeconds", AccessModel.forbiddenEdgeSeconds), ("forbiddenSecondsPerMetre", AccessModel.forbiddenSecondsPerMetre),
            ("primaryShare", AccessModel.primaryShare), ("secondaryShare", AccessModel.secondaryShare),
            ("tertiaryShare", AccessModel.tertiaryShare), ("fastShare", AccessModel.fastShare),
            ("separateSidewalkFactor", AccessModel.separateSidewalkFactor), ("conflictingTagsFactor", AccessModel.conflictingTagsFactor),
            ("fastRoadKmh", AccessModel.fastRoadKmh),
            ("butterMax", RoughnessClass.butterMax), ("okayMax", RoughnessClass.okayMax), ("mehMax", RoughnessClass.mehMax),
            ("maxGradePct", Double(EdgeTable.maxGradePct)), ("sustainWindow", EdgeTable.sustainWindow),
            ("heuristicMargin", SkateCosting.heuristicMargin), ("landmarks", Double(Landmarks.count)),
            ("landmarkMaxValue", Double(LandmarkTable.maxValue)),
            ("brakingWindowMetres", BrakingGrade.windowMetres), ("roughBrakingFactor", BrakingGrade.roughBrakingFactor),
            ("brakingGradePct", PlanBuilder.brakingGradePct), ("cautionGradePct", PlanBuilder.cautionGradePct),
        ]
    }

    /// The fingerprint of this build's costing (with any weights in force through
    /// `ModeWeights.$override`).
    public static var current: UInt64 {
        var bytes: [UInt8] = []
        func add(_ s: String) { bytes.appendLE(UInt32(s.utf8.count)); bytes.append(contentsOf: s.utf8) }
        func add(_ x: Double) { bytes.appendLE(x.bitPattern) }
        bytes.appendLE(formulaVersion)
        for mode in RideMode.allCases {
            add(mode.rawValue)
            for (name, value) in mode.weights.fingerprintFields {
                add(name)
                add(value)
            }
        }
        for (name, value) in constants { add(name); add(value) }
        return bytes.withUnsafeBytes { XXHash64.hash($0) }
    }
}

extension ModeWeights {
    /// Every weight by field name, in declaration order (what the fingerprint hashes; see
    /// `CostingFingerprintTests.fieldListMatchesTheStruct`).
    var fingerprintFields: [(String, Double)] {
        [
            ("roughness", roughness), ("climbSecondsPerMetre", climbSecondsPerMetre), ("flowReward", flowReward),
            ("brakingRisk", brakingRisk), ("brakingSecondsPerMetre", brakingSecondsPerMetre),
            ("cautionSecondsPerMetre", cautionSecondsPerMetre), ("crossingSeconds", crossingSeconds), ("signalSeconds", signalSeconds),
            ("majorJunctionSeconds", majorJunctionSeconds), ("arterial", arterial), ("illegal", illegal),
            ("bikeLaneReward", bikeLaneReward), ("unlit", unlit), ("distance", distance),
            ("sharpDownhillTurnSeconds", sharpDownhillTurnSeconds), ("hazardSeconds", hazardSeconds), ("detourCap", detourCap),
        ]
    }
}
