/**
 * What a person does while the page is still being made (its map waits for the GPU's set-up):
 * a button clicked, a form submitted, a file chosen or dropped. Each is held, and done again in
 * order once the page is wired, so nothing is lost and a drop never navigates the tab to the file.
 */
export function holdEarlyActions(): () => void {
  const actions: (() => void)[] = [];
  const onClick = (e: MouseEvent) => {
    const button = (e.target as Element | null)?.closest?.('button');
    // A submit button's click is its form's submit, held below.
    if (button && !(button.type === 'submit' && button.form)) actions.push(() => button.click());
  };
  const onSubmit = (e: SubmitEvent) => {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const submitter = e.submitter;
    actions.push(() => form.requestSubmit(submitter instanceof HTMLButtonElement ? submitter : null));
  };
  const onChange = (e: Event) => {
    const input = e.target;
    if (input instanceof HTMLInputElement && input.type === 'file') actions.push(() => input.dispatchEvent(new Event('change')));
  };
  const onDragOver = (e: DragEvent) => e.preventDefault();
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    const file = e.dataTransfer?.files[0];
    if (!file) return;
    actions.push(() => {
      const dataTransfer = new DataTransfer();
      dataTransfer.items.add(file);
      window.dispatchEvent(new DragEvent('drop', { dataTransfer, cancelable: true }));
    });
  };
  const listeners: [string, EventListener][] = [
    ['click', onClick as EventListener],
    ['submit', onSubmit as EventListener],
    ['change', onChange],
    ['dragover', onDragOver as EventListener],
    ['drop', onDrop as EventListener],
  ];
  for (const [type, listener] of listeners) window.addEventListener(type, listener, true);
  /** Stops holding, and does what was held, in order. */
  return () => {
    for (const [type, listener] of listeners) window.removeEventListener(type, listener, true);
    for (const action of actions.splice(0)) action();
  };
}
