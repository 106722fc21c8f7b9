/** Resolves in a later task, letting the browser handle input and paint in between. */
export const nextTask = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));
