// The thread's side of worker-line.ts, apart from it: a thread loads only what it needs (not the error table).

/** What a thread is asked: the request with its number, which the answer repeats. */
export interface WorkerQuestion<Request> {
  id: number;
  request: Request;
}

/** What a thread answers: the result, or why it could not make one (an exception in the thread). */
export interface WorkerAnswer<Result> {
  id: number;
  result?: Result;
  error?: string;
}

interface Port<Request, Result> {
  on(event: "message", listener: (question: WorkerQuestion<Request>) => void): unknown;
  postMessage(answer: WorkerAnswer<Result>): void;
}

/** Answers each question with `answer`'s result, or with the message of what it threw. */
export function answerQuestions<Request, Result>(
  port: Port<Request, Result> | null,
  answer: (request: Request) => Result,
): void {
  port?.on("message", (question) => {
    try {
      port.postMessage({ id: question.id, result: answer(question.request) });
    } catch (error) {
      port.postMessage({ id: question.id, error: error instanceof Error ? error.message : String(error) });
    }
  });
}
