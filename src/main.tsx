import { createRoot } from 'react-dom/client';
createRoot(document.getElementById('app')!).render(<div>Outpost</div>);
