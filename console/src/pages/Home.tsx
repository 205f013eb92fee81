import { Button, Card, Icon } from '@blueprintjs/core';
import { useNavigate } from 'react-router-dom';
import { useAuth } from '../auth.tsx';
import { useAppConfig } from '../lib/config.ts';
import './Home.css';

export function Home() {
  const navigate = useNavigate();
  const auth = useAuth();
  const config = useAppConfig();
  // Decisions section 1: the Home buttons only navigate; nothing here authenticates.
  return (
    <div className="hs-page">
      <section className="hs-hero">
        <div className="hs-hero-text">
          <p className="hs-eyebrow">Welcome{auth.name ? `, ${auth.name}` : ''}</p>
          <h1 className="hs-hero-title">Welcome to hivesight</h1>
          <p className="hs-hero-tagline">
            Your partner in ensuring the health and productivity of bee colonies.
          </p>
          <p className="hs-muted">
            Film your hive entrance for a few seconds, upload it, and get counts of worker bees,
            pollen carriers and drones, with a CSV report for every clip.
          </p>
          <div className="hs-button-row">
            <Button
              icon="manual"
              size="large"
              text="Instructions"
              onClick={() => navigate('/instructions')}
            />
            <Button
              icon="arrow-right"
              intent="primary"
              size="large"
              text="Get Started"
              onClick={() => navigate('/file-upload-list')}
            />
            <Button
              icon="star"
              size="large"
              text="Bee Plans"
              onClick={() => navigate('/beeplans')}
            />
            <Button
              icon="document-open"
              size="large"
              text="Research Article"
              onClick={() =>
                window.open(config.researchArticleUrl, '_blank', 'noopener,noreferrer')
              }
            />
          </div>
        </div>
        <Card className="hs-hero-video" elevation={2}>
          <video
            className="hs-intro-video"
            src={config.introVideoUrl}
            controls
            preload="metadata"
            aria-label="Introduction to hivesight"
          />
        </Card>
      </section>
      <section className="hs-feature-grid" aria-label="What hivesight counts">
        {[
          {
            icon: 'eye-open' as const,
            title: 'Entrance activity',
            text: 'Worker bees crossing the entrance, counted once per insect by tracking.',
          },
          {
            icon: 'tint' as const,
            title: 'Pollen foragers',
            text: 'The share of bees bringing pollen home: a sign of brood rearing.',
          },
          {
            icon: 'people' as const,
            title: 'Drones',
            text: 'Drone traffic through the season, as a share of all honeybees.',
          },
          {
            icon: 'warning-sign' as const,
            title: 'Wasps & hornets',
            text: 'Researcher plan: wasp and Asian hornet counts with an e-mail alert.',
          },
        ].map((f) => (
          <Card key={f.title} className="hs-feature">
            <Icon icon={f.icon} size={20} className="hs-accent" />
            <h2 className="hs-feature-title">{f.title}</h2>
            <p className="hs-muted">{f.text}</p>
          </Card>
        ))}
      </section>
    </div>
  );
}
