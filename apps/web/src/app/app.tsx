/** The first page; the screens of the spec replace it in the web-app issue. */
export function App() {
  return (
    <main className="mx-auto flex min-h-screen max-w-[450px] flex-col justify-center gap-4 p-6">
      <h1 className="text-3xl font-semibold text-slate-900">KPI ID</h1>
      <p className="text-slate-700">Єдиний вхід до сервісів КПІ ім. Ігоря Сікорського.</p>
    </main>
  );
}
