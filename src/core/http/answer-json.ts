// A service's answer that is not usable JSON (exit 8): cut off or not JSON at all, or nested deeper than
// MAX_JSON_DEPTH, which no real answer is and which trident could not print.
import { ExitCode, TridentError } from '../errors.js';
import { MAX_JSON_DEPTH, parseJson, type JsonOptions, type JsonProblem } from '../json/parse.js';

export interface AnswerFacts {
  status: number;
  requestId?: string;
}

/** The answer's body as JSON, or the error that says why it is unusable. */
export function answerJson(text: string, serviceName: string, answer: AnswerFacts, options?: JsonOptions): unknown {
  const parsed = parseJson(text, options);
  if (parsed.ok) return parsed.value;
  throw unusableAnswer(serviceName, parsed.problem, answer);
}

export function unusableAnswer(serviceName: string, problem: JsonProblem, { status, requestId }: AnswerFacts): TridentError {
  if (problem === 'too-deep') {
    return new TridentError(ExitCode.unavailable, `${serviceName} sent an answer nested too deeply (more than ${MAX_JSON_DEPTH} levels)`, {
      status,
      requestId,
      hint: `no real answer is nested that deep: check that the URL points at the ${serviceName}; --debug shows the answer`,
    });
  }
  return new TridentError(ExitCode.unavailable, `${serviceName} answered ${status} with a body that is not valid JSON`, {
    status,
    requestId,
    hint: 'the answer may have been cut off; try again, with --debug to see it',
  });
}
