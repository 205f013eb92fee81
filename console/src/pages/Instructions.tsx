import { Callout, Card } from '@blueprintjs/core';
import { PageHeader } from '../components/PageHeader.tsx';
import { useAppConfig } from '../lib/config.ts';
import './Instructions.css';

const STEPS = [
  'Choose a calm, dry day and approach the hive from the side, never blocking the flight path.',
  'Place your phone or camera on a steady support about 30 to 50 cm from the entrance.',
  'Frame the whole entrance and landing board, with the camera level and in focus.',
  'Avoid direct sunlight on the lens and strong shadows across the entrance.',
  'Record 5 to 15 seconds of normal entrance activity (about 10 MB on the Free Forever plan).',
  'Keep the camera still while recording; do not zoom or pan.',
  'Sign in and open File Upload.',
  'Choose the video or picture, describe the hive (colony, timeframe, anything unusual) and pick its location.',
  'Upload the file and wait until its status shows Processed; pictures are processed at once.',
  'Open the report, download the CSV and repeat at the same time of day to follow your colony over the season.',
];

export function Instructions() {
  const config = useAppConfig();
  return (
    <div className="hs-page hs-page-narrow">
      <PageHeader
        title="Instructions"
        subtitle="How to record your hive entrance and read the results."
      />
      <div className="hs-card-grid">
        <Card className="hs-info-card">
          <h2>What the analysis sees</h2>
          <p>
            The analysis is trained on <strong>entrance activity only</strong>: bees landing,
            leaving and walking at the hive entrance. Footage from inside the hive or of frames is
            not supported.
          </p>
          <p>
            Accuracy is about <strong>80% at launch</strong>, and it improves as the model is
            retrained.
          </p>
        </Card>
        <Card className="hs-info-card">
          <h2>File sizes and plans</h2>
          <p>
            The Free Forever size limit is <strong>10 MB</strong>, about 5 to 15 seconds of video.
            The Bees Premium Subscription allows larger files and immediate updates.
          </p>
          <p>
            The Researcher plan allows <strong>50 MB</strong> per video and adds wasp and hornet
            counts. Contact us by e-mail at{' '}
            <a href={`mailto:${config.contactEmail}`}>{config.contactEmail}</a>.
          </p>
        </Card>
        <Card className="hs-info-card">
          <h2>Your data</h2>
          <p>
            Videos are <strong>erased within 24 hours</strong> after processing. Reports are kept,
            so you can come back to your counts at any time.
          </p>
        </Card>
      </div>
      <Card className="hs-section-card">
        <h2>Ten steps for monitoring a beehive</h2>
        <ol className="hs-steps">
          {STEPS.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
      </Card>
      <Callout intent="primary" icon="lightbulb" className="hs-gap-top">
        Tip: record at the same time of day each visit so your counts are comparable.
      </Callout>
    </div>
  );
}
