// SPDX-License-Identifier: Apache-2.0
/// One parameter's resolution result together with the value it settled on, if any.
struct Resolution<Value> {
    let parameter: String
    let result: ResolutionResult
    let value: Value?

    init(_ parameter: String, _ result: ResolutionResult, _ value: Value? = nil) {
        self.parameter = parameter
        self.result = result
        self.value = value
    }

    var json: ParameterResolution { ParameterResolution(parameter: parameter, result: result) }
}

extension Resolution {
    /// The settled value; ``TenderError/wrongState(_:)`` when the parameter still needs an answer.
    func settled() throws(TenderError) -> Value {
        guard let value else { throw .wrongState("\(parameter) is not resolved; resolve and answer first") }
        return value
    }
}

extension Resolution {
    /// The same result with the settled value transformed.
    func map<U>(_ transform: (Value) -> U) -> Resolution<U> { Resolution<U>(parameter, result, value.map(transform)) }
}
