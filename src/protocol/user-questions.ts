/**
 * Questions the model asks the user through the `request_user_input` tool, and the answers a
 * front end sends back. Shapes and field names follow the reference's protocol: questions carry
 * camelCase `isOther` / `isSecret`, answers are keyed by question id.
 */

export interface UserQuestionOption {
  label: string;
  description: string;
}

export interface UserQuestion {
  /** Stable key the answer comes back under. */
  id: string;
  /** A very short title a UI may show above the question. */
  header: string;
  question: string;
  /** Whether the UI should offer a free-form answer besides the options (always true from the tool). */
  isOther: boolean;
  /** Whether the UI should hide what the user types. */
  isSecret: boolean;
  /** Absent when the question has no choices. */
  options?: UserQuestionOption[];
}

/** What the user picked or typed for one question (a UI may send more than one entry). */
export interface UserQuestionAnswer {
  answers: string[];
}

/** The reply to one `request_user_input` event; unanswered questions may be left out. */
export interface UserInputResponse {
  answers: Record<string, UserQuestionAnswer>;
}
