import type { PageModule } from '@fanfare/protocol';
import { Paragraph } from '@fanfare/ui';
import { Banner } from './chrome/Banner.tsx';
import { Footer } from './chrome/Footer.tsx';
import { Header } from './chrome/Header.tsx';
import { PartyReplayLink } from './chrome/PartyReplayLink.tsx';
import { Countdown } from './modules/Countdown.tsx';
import { Hero } from './modules/Hero.tsx';
import { Newsletter } from './modules/Newsletter.tsx';
import { Player } from './modules/Player.tsx';
import { Presave } from './modules/Presave.tsx';
import { CardBlock, LinksBlock, TextBlock } from './modules/Simple.tsx';
import { TokenGateForm } from './modules/TokenGateForm.tsx';
import { lookVariables } from './rules/look.ts';
import { usePage, useRuntime } from './runtime/context.tsx';
import type { Phase } from './runtime/types.ts';

/** Modules shown before the start and after the end; the others (music) only while it runs. */
const ALWAYS: ReadonlySet<PageModule['type']> = new Set(['hero', 'countdown', 'newsletter', 'text', 'card', 'links', 'presave']);

function isShown(module: PageModule, phase: Phase): boolean {
  return phase === 'running' || ALWAYS.has(module.type);
}

function ModuleView({ module, index }: { module: PageModule; index: number }) {
  switch (module.type) {
    case 'hero':
      return <Hero module={module} index={index} />;
    case 'countdown':
      return <Countdown module={module} />;
    case 'newsletter':
      return <Newsletter module={module} />;
    case 'player':
      return <Player module={module} />;
    case 'text':
      return <TextBlock module={module} />;
    case 'card':
      return <CardBlock module={module} />;
    case 'links':
      return <LinksBlock module={module} />;
    case 'presave':
      return <Presave module={module} />;
  }
}

/** The campaign page: its modules in order, in the campaign's look, for the page's phase and access. */
export function App() {
  const view = usePage();
  const rt = useRuntime();
  const modules = view.page.modules.map((m, i) => ({ m, i }));
  const hero = modules.filter(({ m }) => m.type === 'hero');

  let content;
  if (view.campaign.is_token_gate) {
    // The gate page: the hero, then the code form.
    content = (
      <>
        {hero.map(({ m, i }) => (
          <ModuleView key={m.id} module={m} index={i} />
        ))}
        <TokenGateForm />
      </>
    );
  } else if (view.hasAccess !== true) {
    // Checking access, or blocked and on the way to the gate page.
    content = <p className="page__status" role="status">{rt.t('page.loading')}</p>;
  } else if (modules.length === 0) {
    content = <Paragraph className="page__status">{rt.t('page.empty')}</Paragraph>;
  } else {
    content = modules
      .filter(({ m }) => isShown(m, view.phase))
      .map(({ m, i }) => <ModuleView key={m.id} module={m} index={i} />);
  }

  return (
    <div className="page" style={lookVariables(view.page.look)} data-phase={view.phase}>
      {view.page.look.background_image && <div className="page__backdrop" style={{ backgroundImage: `url(${JSON.stringify(view.page.look.background_image)})` }} aria-hidden="true" />}
      {view.banner && <Banner banner={view.banner} closeLabel={rt.t('banner.close')} onClose={() => rt.dismissBanner()} />}
      <Header />
      <main id="content" className="page__main">
        {content}
        {view.hasAccess === true && <PartyReplayLink />}
      </main>
      <Footer />
    </div>
  );
}
